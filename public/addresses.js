// Shortened addresses: each copy button copies its full value, and page scripts build the
// same markup as views/partials/address.ejs for addresses they show.
(() => {
  const node = (tag, className, text) => {
    const element = document.createElement(tag);
    if (className) element.className = className;
    if (text !== undefined) element.textContent = text;
    return element;
  };

  /** 0x70997970…79C8 shortened in the middle; the full value on hover, focus, and in a copy button. */
  window.signetAddress = (value) => {
    const wrapper = node('span', 'addr');
    const short = node('code', 'addr-short');
    short.tabIndex = 0;
    short.title = value;
    const cut = node('span', 'addr-cut', `${value.slice(0, 6)}…${value.slice(-4)}`);
    cut.setAttribute('aria-hidden', 'true');
    short.append(cut, node('span', 'addr-full visually-hidden', value));
    const copy = node('button', 'copy', 'Copy');
    copy.type = 'button';
    copy.dataset.copy = value;
    copy.append(node('span', 'visually-hidden', ` ${value}`));
    wrapper.append(short, copy);
    return wrapper;
  };

  document.addEventListener('click', async (event) => {
    const button = event.target instanceof Element ? event.target.closest('button.copy') : null;
    if (!button) return;
    const label = button.firstChild;
    try {
      await navigator.clipboard.writeText(button.dataset.copy);
      label.textContent = 'Copied';
    } catch {
      label.textContent = 'Select to copy';
      const short = button.parentElement.querySelector('.addr-short');
      short?.focus();
    }
    setTimeout(() => {
      label.textContent = 'Copy';
    }, 2000);
  });
})();
