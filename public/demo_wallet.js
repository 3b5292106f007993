// The embedded demo's wallet, for people without a browser wallet: an EIP-1193 provider
// whose key (anvil's well-known account #1) stays on the demo server. Demo only.
window.signetDemoWallet = {
  isSignetDemoWallet: true,
  async request({ method, params }) {
    const response = await fetch('/demo/wallet', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ method, params: params ?? [] }),
    });
    const json = await response.json();
    if (!response.ok) throw new Error(json.error_description || 'the demo wallet refused');
    return json.result;
  },
};
