// The person's wallets, for the page scripts: EIP-6963 discovery (each injected wallet
// announces itself, so someone with several picks one), window.ethereum as the fallback, and
// the demo's built-in wallet where the demo offers it. The choice is remembered for the tab.
// Before a signature or a transaction, a wallet on another chain is asked to switch.
(() => {
  const REMEMBERED = 'signet.wallet';
  const text = window.signetText;
  const NO_WALLET = text('no_wallet');
  const announced = [];
  window.addEventListener('eip6963:announceProvider', (event) => {
    const { info, provider } = event.detail ?? {};
    if (!info?.uuid || !provider?.request || announced.some((wallet) => wallet.info.uuid === info.uuid)) return;
    announced.push({ info, provider });
  });
  const discover = () => window.dispatchEvent(new Event('eip6963:requestProvider'));
  discover();

  const demoWallet = () =>
    window.signetDemoWallet ? { id: 'demo', name: text('demo_wallet'), provider: window.signetDemoWallet } : undefined;

  /** Injected wallets: the announced ones, then window.ethereum unless it is one of them. */
  const injected = () => {
    discover();
    const list = announced.map(({ info, provider }) => ({ id: info.rdns || info.uuid, name: info.name, icon: info.icon, provider }));
    const fallback = window.ethereum;
    if (fallback?.request && !announced.some((wallet) => wallet.provider === fallback)) {
      list.push({ id: 'window.ethereum', name: text('browser_wallet'), provider: fallback });
    }
    return list;
  };

  const remember = (wallet) => {
    try {
      sessionStorage.setItem(REMEMBERED, wallet.id);
    } catch {
      // storage may be off; the person picks again next time
    }
  };
  const remembered = () => {
    try {
      return sessionStorage.getItem(REMEMBERED);
    } catch {
      return null;
    }
  };

  /** Shows one button per wallet under `after` and resolves with the one pressed. */
  const pick = (wallets, after) =>
    new Promise((resolve) => {
      document.querySelector('.wallet-picker')?.remove();
      const group = document.createElement('div');
      group.className = 'wallet-picker';
      group.setAttribute('role', 'group');
      group.setAttribute('aria-labelledby', 'wallet-picker-heading');
      const heading = document.createElement('p');
      heading.id = 'wallet-picker-heading';
      heading.textContent = text('choose_wallet');
      const buttons = document.createElement('div');
      buttons.className = 'actions';
      for (const wallet of wallets) {
        const button = document.createElement('button');
        button.type = 'button';
        if (wallet.icon && /^data:image\//.test(wallet.icon)) {
          const icon = document.createElement('img');
          icon.src = wallet.icon;
          icon.alt = '';
          button.append(icon);
        }
        button.append(wallet.name);
        button.addEventListener('click', () => {
          group.remove();
          resolve(wallet);
        });
        buttons.append(button);
      }
      group.append(heading, buttons);
      after.after(group);
      buttons.querySelector('button').focus();
    });

  /**
   * The wallet to use: the one chosen earlier in this tab, else the only one there is, else
   * the person's pick. `withDemo` offers the demo wallet too (the demo's account pages).
   */
  const choose = async ({ after, withDemo = false }) => {
    const demo = withDemo ? demoWallet() : undefined;
    const wallets = [...injected(), ...(demo ? [demo] : [])];
    const earlier = wallets.find((wallet) => wallet.id === remembered());
    if (earlier) return earlier;
    if (wallets.length === 0) throw new Error(NO_WALLET);
    const wallet = wallets.length === 1 ? wallets[0] : await pick(wallets, after);
    remember(wallet);
    return wallet;
  };

  /** The demo wallet, chosen by its own button. */
  const useDemo = () => {
    const demo = demoWallet();
    if (!demo) throw new Error(NO_WALLET);
    remember(demo);
    return demo;
  };

  /** Asks a wallet on another chain to switch (EIP-3326) and checks that it did. */
  const ensureChain = async (wallet, chainId, say) => {
    const current = Number.parseInt(await wallet.provider.request({ method: 'eth_chainId' }), 16);
    if (current === chainId) return;
    say?.(text('switching_chain', { current, chain: chainId }));
    try {
      await wallet.provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: `0x${chainId.toString(16)}` }] });
    } catch (error) {
      if (error?.code === 4902) throw new Error(text('unknown_chain', { chain: chainId }));
      throw new Error(text('switch_chain', { chain: chainId, reason: error?.message ?? text('wallet_refused') }));
    }
    const now = Number.parseInt(await wallet.provider.request({ method: 'eth_chainId' }), 16);
    if (now !== chainId) throw new Error(text('still_on_chain', { current: now, chain: chainId }));
  };

  /** Lists the identities a wallet has on several chains as buttons in `box`; `pick` gets the one chosen. */
  const offerChains = (box, choices, pick) => {
    box.replaceChildren();
    for (const choice of choices) {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = `${choice.chain_name}: ${choice.identity}`;
      button.addEventListener('click', () => {
        box.hidden = true;
        pick(choice);
      });
      box.append(button);
    }
    box.hidden = false;
  };

  window.signetWallets = { choose, useDemo, ensureChain, offerChains, NO_WALLET };
})();
