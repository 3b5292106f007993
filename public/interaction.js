// The consent page: connect an EIP-1193 wallet, ask Signet for the exact text to sign
// (naming the fields kept), sign it with personal_sign, and hand the signature back.
// It uses only the interaction's JSON routes, the same ones any wallet SDK can call.
(() => {
  const page = document.getElementById('consent');
  const base = `/interaction/${page.dataset.uid}`;
  const $ = (id) => document.getElementById(id);
  const state = { address: null, challenge: null, claimsShown: false };
  const STATUS_WORDS = {
    valid: 'valid',
    untrusted_issuer: 'issuer not trusted: cannot be shared',
    not_confirmed_by_issuer: 'revoked or no longer confirmed by its issuer',
    expired: 'expired',
  };

  const say = (text, isError) => {
    $('status').textContent = text;
    $('status').className = isError ? 'error' : '';
  };

  const post = async (path, body) => {
    const response = await fetch(base + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify(body ?? {}),
    });
    const json = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(json.error_description || `Signet answered ${response.status}`);
    return json;
  };

  const wallet = () => window.ethereum;

  const keptFields = () =>
    Array.from(document.querySelectorAll('input[name="fields"]'))
      .filter((box) => box.checked)
      .map((box) => box.value);

  const keptClaims = () =>
    Array.from(document.querySelectorAll('input[name="claims"]'))
      .filter((box) => box.checked)
      .map((box) => box.value);

  // Lists the identity's claims of the requested topics, each with its issuer and status.
  const showClaims = (claims) => {
    const list = $('claims');
    list.replaceChildren();
    for (const claim of claims) {
      const row = document.createElement('div');
      row.className = 'field';
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.name = 'claims';
      box.value = claim.claim_id;
      box.id = `claim-${claim.claim_id}`;
      box.checked = claim.kept;
      box.disabled = !claim.valid;
      box.addEventListener('change', prepare);
      const label = document.createElement('label');
      label.htmlFor = box.id;
      const expiry = claim.expires_at ? `, until ${claim.expires_at.slice(0, 10)}` : '';
      label.textContent = `${claim.topic_name ?? `topic ${claim.topic}`} claim by ${claim.issuer} (${STATUS_WORDS[claim.status] ?? claim.status}${expiry})`;
      row.append(box, label);
      list.append(row);
    }
    $('claims-box').hidden = claims.length === 0;
    state.claimsShown = claims.length > 0;
  };

  const resetChallenge = () => {
    state.challenge = null;
    $('challenge-box').hidden = true;
    $('sign').disabled = true;
  };

  const connect = async () => {
    if (!wallet()) {
      say('No browser wallet found. Install one, or use the demo wallet where offered.', true);
      return;
    }
    try {
      const [address] = await wallet().request({ method: 'eth_requestAccounts' });
      state.address = address;
      $('wallet').textContent = `Wallet ${address}`;
      $('prepare').disabled = false;
      resetChallenge();
      await prepare();
    } catch (error) {
      say(`The wallet did not connect: ${error.message}`, true);
    }
  };

  const prepare = async () => {
    if (!state.address) return;
    say('Preparing the text to sign…');
    try {
      const identity = $('identity').value.trim();
      const answer = await post('/challenge', {
        address: state.address,
        ...(identity ? { identity } : {}),
        fields: keptFields(),
        ...(state.claimsShown ? { claims: keptClaims() } : {}),
      });
      showClaims(answer.claims ?? []);
      state.challenge = answer.challenge;
      $('identity').value = answer.identity;
      $('challenge').textContent = answer.challenge;
      $('challenge-box').hidden = false;
      $('sign').disabled = false;
      say('Read the text, then sign it with your wallet.');
    } catch (error) {
      resetChallenge();
      say(error.message, true);
    }
  };

  const sign = async () => {
    if (!state.challenge) return;
    $('sign').disabled = true;
    say('Waiting for your wallet…');
    try {
      const signature = await wallet().request({ method: 'personal_sign', params: [state.challenge, state.address] });
      say('Checking the signature…');
      const answer = await post('/signature', { signature, message: state.challenge });
      say('Signed in. Returning to the website…');
      window.location.assign(answer.redirect_to);
    } catch (error) {
      $('sign').disabled = false;
      say(error.message, true);
    }
  };

  const abort = async () => {
    try {
      const answer = await post('/abort');
      window.location.assign(answer.redirect_to);
    } catch (error) {
      say(error.message, true);
    }
  };

  $('connect').addEventListener('click', connect);
  $('prepare').addEventListener('click', prepare);
  $('sign').addEventListener('click', sign);
  $('abort').addEventListener('click', abort);
  $('identity').addEventListener('change', resetChallenge);
  for (const box of document.querySelectorAll('input[name="fields"]')) {
    box.addEventListener('change', () => {
      resetChallenge();
      // A topic ticked again starts from its valid claims.
      state.claimsShown = false;
      if (state.address) prepare();
    });
  }
  const demo = $('use-demo-wallet');
  if (demo) {
    demo.addEventListener('click', () => {
      window.ethereum = window.signetDemoWallet;
      connect();
    });
  }
})();
