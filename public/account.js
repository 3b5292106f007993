// The account pages' wallet calls, and nothing else: sign in (the text shown first, signed on
// "Sign"), create the identity, send the transactions that change keys and claims, and sign
// approvals. Everything else is HTML forms. Wallets come from wallets.js.
(() => {
  const root = document.getElementById('account');
  if (!root) return;
  const $ = (id) => document.getElementById(id);
  const text = window.signetText;
  const chainId = Number(root.dataset.chainId);
  const say = (text, isError) => {
    const status = $('status');
    if (!status) return;
    status.textContent = text;
    status.className = isError ? 'error' : '';
  };
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  // The session's form token, drawn into the page: every request that changes something carries it.
  let formToken = document.querySelector('meta[name="csrf-token"]')?.content;
  const call = async (method, path, body) => {
    const response = await fetch(path, {
      method,
      headers: {
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(formToken && method !== 'GET' ? { 'x-csrf-token': formToken } : {}),
      },
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(json.error_description || text('signet_answered', { status: response.status }));
    return json;
  };

  /** The wallet for this page's action: the one chosen in this tab, else the only one, else the person's pick (the demo wallet offered where the demo runs). */
  const chooseWallet = () => window.signetWallets.choose({ after: $('status'), withDemo: true });

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

  /** Resolves when the person presses the Sign button shown under the text. */
  const pressed = (button) =>
    new Promise((resolve) => {
      button.hidden = false;
      button.disabled = false;
      button.focus();
      button.addEventListener('click', () => resolve(), { once: true });
    });

  // Sends a transaction prepared by Signet from the signed-in wallet, then waits for it. `what`:
  // the change in the page's language (the answer's `description` is English, for API users).
  const sendAndWait = async (prepared, what) => {
    const wallet = await chooseWallet();
    await window.signetWallets.ensureChain(wallet, chainId, say);
    say(text('tx_confirm', { what }));
    const hash = await wallet.provider.request({
      method: 'eth_sendTransaction',
      params: [{ from: root.dataset.wallet, to: prepared.to, data: prepared.data }],
    });
    say(text('tx_pending', { what, hash }));
    for (;;) {
      const { status } = await call('GET', `/account/transactions/${hash}`);
      if (status === 'confirmed') break;
      if (status === 'failed') throw new Error(text('tx_failed', { hash }));
      await sleep(1000);
    }
    say(text('tx_confirmed', { what }));
    window.location.reload();
  };

  const signin = $('signin');
  if (signin) {
    // The wallet has identities on several chains: the owner picks one, and the text is asked again.
    const choose = (choices) =>
      new Promise((resolve) => {
        window.signetWallets.offerChains($('signin-choice'), choices, (choice) => {
          $('signin-chain').value = String(choice.chain_id);
          resolve(choice);
        });
        say(text('choose_chain'));
      });
    const signInWith = async (wallet) => {
      const [address] = await wallet.provider.request({ method: 'eth_requestAccounts' });
      const identity = $('signin-identity')?.value.trim();
      const chosenChain = $('signin-chain')?.value;
      let answer = await call('POST', '/account/challenge', {
        address,
        ...(identity ? { identity } : {}),
        ...(chosenChain ? { chain_id: Number(chosenChain) } : {}),
      });
      if (answer.choose) {
        const choice = await choose(answer.choose);
        answer = await call('POST', '/account/challenge', { address, identity: choice.identity, chain_id: choice.chain_id });
      }
      $('signin-text').textContent = answer.challenge;
      $('signin-box').hidden = false;
      say(
        answer.chain_name
          ? text('press_sign_chain', { chain: answer.chain_name, wallet: wallet.name })
          : text('press_sign', { wallet: wallet.name }),
      );
      await pressed($('signin-sign'));
      $('signin-sign').disabled = true;
      // The identity's chain (as the text names it): the wallet signs on it.
      await window.signetWallets.ensureChain(wallet, answer.chain_id ?? chainId, say);
      say(text('waiting_wallet'));
      const signature = await wallet.provider.request({ method: 'personal_sign', params: [answer.challenge, address] });
      ({ csrf_token: formToken } = await call('POST', '/account/session', { signature, message: answer.challenge }));
      window.location.assign(root.dataset.next || '/account');
    };
    signin.addEventListener(
      'click',
      guard(signin, async () => signInWith(await window.signetWallets.choose({ after: $('signin-actions') }))),
    );
    const demo = $('use-demo-wallet');
    demo?.addEventListener(
      'click',
      guard(demo, async () => signInWith(window.signetWallets.useDemo())),
    );
  }

  const create = $('create-identity');
  if (create) {
    create.addEventListener(
      'click',
      guard(create, async () => {
        let record = await call('POST', '/account/identity', {});
        while (record.status === 'pending') {
          say(text('deploying', { transaction: record.transaction }));
          await sleep(1000);
          record = await call('GET', '/account/identity');
        }
        if (record.status === 'failed') throw new Error(record.error || text('deploy_failed'));
        say(text('identity_ready', { identity: record.identity }));
        window.location.assign('/account');
      }),
    );
  }

  const keyChange = (action, address, purpose) => {
    const values = { wallet: address, purpose: purpose.toUpperCase() };
    return action === 'add' ? text('tx_key_add', values) : text('tx_key_remove', values);
  };
  for (const button of document.querySelectorAll('.js-key')) {
    button.addEventListener(
      'click',
      guard(button, async () => {
        const { address, purpose, action } = button.dataset;
        await sendAndWait(await call('POST', '/account/wallets/transactions', { address, purpose, action }), keyChange(action, address, purpose));
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
        await sendAndWait(await call('POST', '/account/wallets/transactions', { address, purpose, action: 'add' }), keyChange('add', address, purpose));
      }),
    );
  }

  for (const button of document.querySelectorAll('.js-remove-claim')) {
    button.addEventListener(
      'click',
      guard(button, async () => {
        const claimId = button.dataset.claimId;
        await sendAndWait(await call('POST', '/account/claims/transactions', { action: 'remove', claim_id: claimId }), text('tx_claim_remove', { claim: claimId }));
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
          throw new Error(text('claim_not_json'));
        }
        const what = text('tx_claim_add', { topic: String(claim.topic), issuer: String(claim.issuer) });
        await sendAndWait(await call('POST', '/account/claims/transactions', { action: 'add', claim }), what);
      }),
    );
  }

  // Approving shows the request's text first; the wallet signs it on "Sign".
  for (const button of document.querySelectorAll('.js-approve')) {
    button.addEventListener(
      'click',
      guard(button, async () => {
        const { id, kind } = button.dataset;
        const request = document.getElementById(`request-${id}`);
        const challenge = request.querySelector('.js-challenge').textContent;
        request.querySelector('details').open = true;
        const sign = request.querySelector('.js-sign');
        let signature;
        try {
          const wallet = await chooseWallet();
          const [address] = await wallet.provider.request({ method: 'eth_requestAccounts' });
          say(text('press_sign', { wallet: wallet.name }));
          button.hidden = true;
          await pressed(sign);
          sign.disabled = true;
          await window.signetWallets.ensureChain(wallet, chainId, say);
          say(text('waiting_wallet'));
          signature = await wallet.provider.request({ method: 'personal_sign', params: [challenge, address] });
        } finally {
          // Approve again after a refusal; the text stays shown.
          sign.hidden = true;
          button.hidden = false;
        }
        const path = kind === 'grant' ? `/access-grants/${encodeURIComponent(id)}/validations` : `/account/backchannel/${encodeURIComponent(id)}/approvals`;
        await call('POST', path, { signature });
        window.location.assign('/account/accesses');
      }),
    );
  }
  // Erasure: the text is shown first and signed on "Sign"; then the job is followed until done
  // (it ends this session too, so its state is read by the job's own address).
  const erase = $('erase');
  if (erase) {
    erase.addEventListener(
      'click',
      guard(erase, async () => {
        const wallet = await chooseWallet();
        const [address] = await wallet.provider.request({ method: 'eth_requestAccounts' });
        const answer = await call('POST', '/account/erasure/challenge');
        $('erase-text').textContent = answer.challenge;
        $('erase-box').hidden = false;
        say(text('press_sign', { wallet: wallet.name }));
        await pressed($('erase-sign'));
        $('erase-sign').disabled = true;
        await window.signetWallets.ensureChain(wallet, chainId, say);
        say(text('waiting_wallet'));
        const signature = await wallet.provider.request({ method: 'personal_sign', params: [answer.challenge, address] });
        const revoke = $('revoke-issued-claims')?.checked === true;
        const job = await call('POST', '/account/erasure', { signature, message: answer.challenge, revoke_issued_claims: revoke });
        let state = job;
        while (state.status !== 'done') {
          say(text('erasing', { status: state.status }));
          await sleep(500);
          state = await call('GET', `/account/erasures/${encodeURIComponent(job.id)}`);
        }
        say(text('erased'));
        $('erase-box').hidden = true;
        erase.hidden = true;
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
