// The consent page: pick a wallet, ask Signet for the exact text to sign (naming the fields,
// claims and verified claims kept), show it, and sign it with personal_sign once the person
// presses Sign.
// It uses only the interaction's JSON routes, the same ones any wallet SDK can call.
(() => {
  const page = document.getElementById('consent');
  const base = `/interaction/${page.dataset.uid}`;
  // The chain of the identity the challenge names (the first chain until Signet answers).
  let chainId = Number(page.dataset.chainId);
  const issuerNames = JSON.parse(page.dataset.issuerNames || '{}');
  const topicNames = JSON.parse(page.dataset.topicNames || '{}');
  const providerNames = JSON.parse(page.dataset.providerNames || '{}');
  const $ = (id) => document.getElementById(id);
  const state = { wallet: null, address: null, challenge: null, claimsShown: false, verifiedShown: false, providers: null, held: [] };
  const text = window.signetText;
  const statusWords = (status) => (['valid', 'untrusted_issuer', 'not_confirmed_by_issuer', 'expired'].includes(status) ? text(`claim_${status}`) : status);
  const day = (iso) => new Intl.DateTimeFormat(window.signetLang, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(iso));
  const moment = (iso) =>
    new Intl.DateTimeFormat(window.signetLang, { dateStyle: 'medium', timeStyle: 'long', timeZone: 'UTC' }).format(new Date(iso));

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
    if (!response.ok) throw new Error(json.error_description || text('signet_answered', { status: response.status }));
    return json;
  };

  // Profile fields the person kept, and every claim topic and verified field asked for: the
  // claims chosen decide which stay (one left with no claim is dropped by Signet).
  const keptFields = () => [
    ...Array.from(document.querySelectorAll('input[name="fields"]'))
      .filter((box) => box.checked)
      .map((box) => box.value),
    ...Array.from(document.querySelectorAll('.claim-topic')).map((topic) => topic.dataset.scope),
    ...Array.from(document.querySelectorAll('.verified-field')).map((field) => field.dataset.field),
  ];

  // The verified claims kept, claim by claim: [{ claim_id, claims: [names] }].
  const keptVerified = () => {
    const byClaim = new Map();
    for (const box of document.querySelectorAll('input[name="verified"]')) {
      if (!box.checked) continue;
      byClaim.set(box.dataset.claimId, [...(byClaim.get(box.dataset.claimId) ?? []), box.dataset.claim]);
    }
    return Array.from(byClaim, ([claimId, claims]) => ({ claim_id: claimId, claims }));
  };

  const keptClaims = () =>
    Array.from(document.querySelectorAll('input[name="claims"]'))
      .filter((box) => box.checked)
      .map((box) => box.value);

  const issuerOf = (address) => issuerNames[address] ?? null;

  // Each claim in its topic's place: one checkbox per claim, named by topic, issuer and validity.
  const showClaims = (claims) => {
    for (const list of document.querySelectorAll('.claim-list')) {
      const mine = claims.filter((claim) => claim.topic_name === list.dataset.topic);
      list.replaceChildren();
      if (mine.length === 0) {
        const none = document.createElement('p');
        none.className = 'muted';
        none.textContent = text('no_claim_of_kind');
        list.append(none);
      }
      for (const claim of mine) {
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
        const topic = topicNames[claim.topic_name] ?? claim.topic_name;
        const issuer = issuerOf(claim.issuer);
        const status = claim.expires_at ? text('claim_until', { status: statusWords(claim.status), date: day(claim.expires_at) }) : statusWords(claim.status);
        label.textContent = text(issuer ? 'claim_by' : 'claim_by_address', { topic, status, issuer: issuer ?? '' });
        const line = document.createElement('div');
        line.className = 'field-text';
        line.append(label);
        // An issuer without a configured name: its address, shortened, beside the label.
        if (!issuer) line.append(' ', window.signetAddress(claim.issuer));
        row.append(box, line);
        list.append(row);
      }
    }
    state.claimsShown = true;
  };

  // Each verified field in its place: one checkbox per claim that holds it, named by who verified
  // it under which rules ("date of birth, verified by Acme KYC under the German AML rules").
  const showVerified = (offers) => {
    for (const list of document.querySelectorAll('.verified-list')) {
      const name = list.dataset.claim;
      const holders = offers.filter((offer) => offer.claims.some((claim) => claim.name === name));
      list.replaceChildren();
      if (holders.length === 0) {
        const none = document.createElement('p');
        none.className = 'muted';
        none.textContent = text('no_verified');
        list.append(none);
      }
      for (const offer of holders) {
        const claim = offer.claims.find((each) => each.name === name);
        const row = document.createElement('div');
        row.className = 'field';
        const box = document.createElement('input');
        box.type = 'checkbox';
        box.name = 'verified';
        box.id = `verified-${offer.claim_id}-${name}`;
        box.dataset.claimId = offer.claim_id;
        box.dataset.claim = name;
        box.checked = claim.kept;
        box.disabled = claim.required;
        box.addEventListener('change', prepare);
        const label = document.createElement('label');
        label.htmlFor = box.id;
        const label0 = list.dataset.label || claim.label;
        const what = label0.charAt(0).toLocaleUpperCase(window.signetLang) + label0.slice(1);
        const under = text('verified_under', { framework: offer.trust_framework_name });
        const line = document.createElement('div');
        line.className = 'field-text';
        if (offer.issuer_name) {
          label.textContent = text('verified_by', { what, issuer: offer.issuer_name, under });
          line.append(label);
        } else {
          // An issuer without a configured name: its address, shortened (in full for screen readers).
          label.textContent = text('verified_by_address', { what });
          box.setAttribute('aria-label', text('verified_by', { what, issuer: offer.issuer, under }));
          line.append(label, ' ', window.signetAddress(offer.issuer), ' ', under);
        }
        if (claim.required) {
          const tag = document.createElement('span');
          tag.className = 'tag';
          tag.textContent = text('required');
          line.append(' ', tag);
        }
        row.append(box, line);
        list.append(row);
      }
    }
    state.verifiedShown = document.querySelector('.verified-list') !== null;
  };

  // The signed text stays ASCII English (EIP-4361); beside it, each of its lines in the page's language.
  const LINES = [
    [/^(\S+) wants you to sign in with your Ethereum account:$/, (m) => text('siwe_domain', { domain: m[1] })],
    [/^(0x[0-9a-fA-F]{40})$/, (m) => text('siwe_address', { address: m[1] })],
    [/^URI: (.+)$/, (m) => text('siwe_uri', { uri: m[1] })],
    [/^Version: (.+)$/, (m) => text('siwe_version', { version: m[1] })],
    [/^Chain ID: (\d+)$/, (m) => text('siwe_chain', { chain: m[1] })],
    [/^Nonce: (.+)$/, () => text('siwe_nonce')],
    [/^Issued At: (.+)$/, (m) => text('siwe_issued', { time: moment(m[1]) })],
    [/^Expiration Time: (.+)$/, (m) => text('siwe_expires', { time: moment(m[1]) })],
    [/^Not Before: (.+)$/, (m) => text('siwe_not_before', { time: moment(m[1]) })],
    [/^Request ID: (.+)$/, () => text('siwe_request_id')],
    [/^Resources:$/, () => text('siwe_resources')],
    [/^- (did:pkh:\S+|eip155:\S+)$/, (m) => text('siwe_resource_identity', { uri: m[1] })],
    [/^- (\S+)$/, (m) => text('siwe_resource', { uri: m[1] })],
  ];
  const explain = (message) => {
    const items = [];
    let statementSeen = false;
    for (const line of message.split('\n')) {
      if (!line) continue;
      const known = LINES.find(([pattern]) => pattern.test(line));
      let words;
      if (known) words = known[1](line.match(known[0]));
      else if (!statementSeen) {
        statementSeen = true;
        words = text('siwe_statement');
      } else continue;
      const item = document.createElement('li');
      const quoted = document.createElement('code');
      quoted.lang = 'en';
      quoted.textContent = line.length > 60 ? `${line.slice(0, 57)}…` : line;
      item.append(quoted, document.createElement('br'), words);
      items.push(item);
    }
    $('challenge-explained').replaceChildren(...items);
  };

  // Claims whose data another provider holds: who holds it, and, the first time, that provider's
  // text for the wallet's second signature (asked for at once, while the person reads).
  const showHeld = (held, claims) => {
    state.providers = null;
    $('held-box').hidden = held.length === 0;
    $('second-signature').hidden = true;
    if (held.length === 0) return;
    const list = $('held-list');
    list.replaceChildren();
    for (const each of held) {
      const claim = claims.find((one) => one.claim_id === each.claim_id);
      const topic = claim?.topic_name ? topicNames[claim.topic_name] || claim.topic_name : text('held_claim_word');
      const item = document.createElement('li');
      item.className = 'held-claim';
      item.dataset.claimId = each.claim_id;
      item.textContent = text(each.second_signature ? 'held_claim_second' : 'held_claim', { topic, provider: providerNames[each.provider] ?? each.provider });
      list.append(item);
    }
    if (!held.some((each) => each.second_signature)) return;
    $('second-signature').hidden = false;
    askProviders(held);
  };

  // The providers' texts, asked for while the person reads. Signet's own refusal (a limit, its store
  // down) is said as such, never read as "the provider did not answer": Sign asks again.
  const askProviders = (held) => {
    $('provider-challenges').textContent = text('asking_provider');
    const asking = post('/provider-challenges').then(
      (answer) => {
        // Only the claims kept now: the owner may have unticked one since the provider was asked.
        const texts = answer.challenges.filter((each) => each.challenge && held.some((one) => one.claim_id === each.claim_id && one.second_signature));
        $('provider-challenges').textContent = texts.length
          ? texts.map((each) => each.challenge).join('\n\n')
          : text('provider_no_answer');
        return texts;
      },
      (error) => {
        $('provider-challenges').textContent = error.message;
        throw error;
      },
    );
    asking.catch(() => {}); // said in the box above; sign() says it again
    state.providers = asking;
    state.held = held;
  };

  const resetChallenge = () => {
    state.challenge = null;
    state.providers = null;
    $('challenge-box').hidden = true;
    $('challenge-explained').replaceChildren();
    $('held-box').hidden = true;
    $('sign').disabled = true;
    $('prepare').hidden = false;
  };

  const connectWith = async (wallet) => {
    const [address] = await wallet.provider.request({ method: 'eth_requestAccounts' });
    state.wallet = wallet;
    state.address = address;
    $('wallet').replaceChildren(`${wallet.name}: `, window.signetAddress(address));
    $('prepare').disabled = false;
    resetChallenge();
    await prepare();
  };

  const connect = async () => {
    try {
      await connectWith(await window.signetWallets.choose({ after: $('wallet') }));
    } catch (error) {
      say(error.message === window.signetWallets.NO_WALLET ? error.message : text('wallet_not_connected', { message: error.message }), true);
    }
  };

  const prepare = async () => {
    if (!state.address) return;
    say(text('preparing'));
    try {
      const identity = $('identity').value.trim();
      const chosenChain = $('chain')?.value;
      const answer = await post('/challenge', {
        address: state.address,
        ...(identity ? { identity } : {}),
        ...(chosenChain ? { chain_id: Number(chosenChain) } : {}),
        fields: keptFields(),
        ...(state.claimsShown ? { claims: keptClaims() } : {}),
        ...(state.verifiedShown ? { verified: keptVerified() } : {}),
      });
      if (answer.choose) {
        offerChoice(answer.choose);
        return;
      }
      chainId = answer.chain_id;
      showClaims(answer.claims ?? []);
      showVerified(answer.verified ?? []);
      state.challenge = answer.challenge;
      showHeld(answer.held_elsewhere ?? [], answer.claims ?? []);
      $('identity').value = answer.identity;
      $('challenge').textContent = answer.challenge;
      explain(answer.challenge);
      $('challenge-box').hidden = false;
      $('prepare').hidden = true;
      $('sign').disabled = false;
      say($('chain') ? text('read_then_sign_chain', { chain: answer.chain_name }) : text('read_then_sign'));
    } catch (error) {
      resetChallenge();
      say(error.message, true);
    }
  };

  // The wallet has identities on several chains: the owner picks one, and the text is asked again.
  const offerChoice = (choices) => {
    window.signetWallets.offerChains($('chain-choice'), choices, (choice) => {
      $('chain').value = String(choice.chain_id);
      $('identity').value = choice.identity;
      prepare();
    });
    say(text('choose_chain'));
  };

  const sign = async () => {
    if (!state.challenge) return;
    $('sign').disabled = true;
    try {
      // The providers' texts before anything is signed: when Signet could not get them, nothing is signed, and Sign asks again.
      let texts;
      try {
        texts = (await state.providers) ?? [];
      } catch (error) {
        askProviders(state.held);
        throw error;
      }
      await window.signetWallets.ensureChain(state.wallet, chainId, say);
      say(text('waiting_wallet'));
      const signature = await state.wallet.provider.request({ method: 'personal_sign', params: [state.challenge, state.address] });
      // Each provider's text right after Signet's own.
      const providerSignatures = [];
      for (const each of texts) {
        say(text('waiting_second_signature'));
        providerSignatures.push({ claim_id: each.claim_id, signature: await state.wallet.provider.request({ method: 'personal_sign', params: [each.challenge, state.address] }) });
      }
      say(text('checking_signature'));
      const answer = await post('/signature', {
        signature,
        message: state.challenge,
        ...(providerSignatures.length ? { provider_signatures: providerSignatures } : {}),
      });
      say(text('signed_in_returning'));
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
  $('chain')?.addEventListener('change', resetChallenge);
  for (const box of document.querySelectorAll('input[name="fields"]')) {
    box.addEventListener('change', () => {
      resetChallenge();
      if (state.address) prepare();
    });
  }
  $('use-demo-wallet')?.addEventListener('click', async () => {
    try {
      await connectWith(window.signetWallets.useDemo());
    } catch (error) {
      say(error.message, true);
    }
  });
})();
