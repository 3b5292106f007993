// The account pages' wallet calls, and nothing else: sign in, create the identity, send the
// transactions that change keys and claims, and sign approvals. Everything else is HTML forms.
(() => {
  const root = document.getElementById('account');
  if (!root) return;
  const $ = (id) => document.getElementById(id);
  const wallet = () => window.ethereum;
  const say = (text, isError) => {
    const status = $('status');
    if (!status) return;
    status.textContent = text;
    status.className = isError ? 'error' : '';
  };
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  const call = async (method, path, body) => {
    const response = await fetch(path, {
      method,
      headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(json.error_description || `Signet answered ${response.status}`);
    return json;
  };

  const needWallet = () => {
    if (!wallet()) throw new Error('No browser wallet found. Install one, or use the demo wallet where offered.');
    return wallet();
  };

  const guard = (button, work) => async (event) => {
    event?.preventDefault();
    if (button) button.disabled = true;
    try {
      await work(event);
    } catch (error) {
      say(error.message, true);
    } finally {
      if (button) button.disabled = false;
    }
  };

  // Sends a transaction prepared by Signet from the signed-in wallet, then waits for it.
  const sendAndWait = async (prepared) => {
    say(`${prepared.description}: confirm in your wallet…`);
    const hash = await needWallet().request({
      method: 'eth_sendTransaction',
      params: [{ from: root.dataset.wallet, to: prepared.to, data: prepared.data }],
    });
    say(`${prepared.description}: transaction ${hash} pending…`);
    for (;;) {
      const { status } = await call('GET', `/account/transactions/${hash}`);
      if (status === 'confirmed') break;
      if (status === 'failed') throw new Error(`The transaction ${hash} failed: the identity refused the change.`);
      await sleep(1000);
    }
    say(`${prepared.description}: confirmed.`);
    window.location.reload();
  };

  const signin = $('signin');
  if (signin) {
    const signIn = guard(signin, async () => {
      const [address] = await needWallet().request({ method: 'eth_requestAccounts' });
      const identity = $('signin-identity')?.value.trim();
      const answer = await call('POST', '/account/challenge', { address, ...(identity ? { identity } : {}) });
      $('signin-text').textContent = answer.challenge;
      $('signin-box').hidden = false;
      say('Sign the text in your wallet…');
      const signature = await wallet().request({ method: 'personal_sign', params: [answer.challenge, address] });
      await call('POST', '/account/session', { signature, message: answer.challenge });
      window.location.assign('/account');
    });
    signin.addEventListener('click', signIn);
    $('use-demo-wallet')?.addEventListener('click', () => {
      window.ethereum = window.signetDemoWallet;
      signIn();
    });
  }

  const create = $('create-identity');
  if (create) {
    create.addEventListener(
      'click',
      guard(create, async () => {
        let record = await call('POST', '/account/identity', {});
        while (record.status === 'pending') {
          say(`Deploying your identity… transaction ${record.transaction}`);
          await sleep(1000);
          record = await call('GET', '/account/identity');
        }
        if (record.status === 'failed') throw new Error(record.error || 'The deployment failed; try again.');
        say(`Your identity ${record.identity} is ready.`);
        window.location.assign('/account');
      }),
    );
  }

  for (const button of document.querySelectorAll('.js-key')) {
    button.addEventListener(
      'click',
      guard(button, async () => {
        const { address, purpose, action } = button.dataset;
        await sendAndWait(await call('POST', '/account/wallets/transactions', { address, purpose, action }));
      }),
    );
  }
  const addKey = $('add-key');
  if (addKey) {
    addKey.addEventListener(
      'submit',
      guard(addKey.querySelector('button'), async () => {
        const address = $('new-wallet').value.trim();
        const purpose = $('new-purpose').value;
        await sendAndWait(await call('POST', '/account/wallets/transactions', { address, purpose, action: 'add' }));
      }),
    );
  }

  for (const button of document.querySelectorAll('.js-remove-claim')) {
    button.addEventListener(
      'click',
      guard(button, async () => {
        await sendAndWait(await call('POST', '/account/claims/transactions', { action: 'remove', claim_id: button.dataset.claimId }));
      }),
    );
  }
  const addClaim = $('add-claim');
  if (addClaim) {
    addClaim.addEventListener(
      'submit',
      guard(addClaim.querySelector('button'), async () => {
        let claim;
        try {
          claim = JSON.parse($('signed-claim').value);
        } catch {
          throw new Error('The signed claim must be the JSON the issuer returned.');
        }
        await sendAndWait(await call('POST', '/account/claims/transactions', { action: 'add', claim }));
      }),
    );
  }

  for (const button of document.querySelectorAll('.js-approve')) {
    button.addEventListener(
      'click',
      guard(button, async () => {
        const { id, kind } = button.dataset;
        const challenge = document.querySelector(`#request-${CSS.escape(id)} .js-challenge`).textContent;
        const [address] = await needWallet().request({ method: 'eth_requestAccounts' });
        say('Sign the request in your wallet…');
        const signature = await wallet().request({ method: 'personal_sign', params: [challenge, address] });
        const path = kind === 'grant' ? `/access-grants/${encodeURIComponent(id)}/validations` : `/account/backchannel/${encodeURIComponent(id)}/approvals`;
        await call('POST', path, { signature });
        window.location.assign('/account/accesses');
      }),
    );
  }
  for (const button of document.querySelectorAll('.js-deny')) {
    button.addEventListener(
      'click',
      guard(button, async () => {
        const { id, kind } = button.dataset;
        const path = kind === 'grant' ? `/access-grants/${encodeURIComponent(id)}/denials` : `/account/backchannel/${encodeURIComponent(id)}/denials`;
        await call('POST', path, {});
        window.location.assign('/account/accesses?done=denied');
      }),
    );
  }
})();
