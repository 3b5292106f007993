// Shortened addresses: each copy button copies its full value, and page scripts build the
// same markup as views/partials/address.ejs for addresses they show. And the page's messages in
// its language (the catalog's `script.` messages, carried in the page as JSON): signetText.
(() => {
  const carried = document.getElementById('signet-messages');
  const { lang, messages } = carried ? JSON.parse(carried.textContent) : { lang: 'en', messages: {} };
  /** The message `key` in the page's language, its {names} replaced by `values`. */
  window.signetText = (key, values) =>
    (messages[key] ?? key).replace(/\{(\w+)\}/g, (whole, name) => (values && name in values ? String(values[name]) : whole));
  window.signetLang = lang;

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
    const copy = node('button', 'copy', window.signetText('copy'));
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
      label.textContent = window.signetText('copied');
    } catch {
      label.textContent = window.signetText('copy_select');
      const short = button.parentElement.querySelector('.addr-short');
      short?.focus();
    }
    setTimeout(() => {
      label.textContent = window.signetText('copy');
    }, 2000);
  });
})();
