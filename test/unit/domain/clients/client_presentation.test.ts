// Who asks, as the owner reads and signs it: name skeletons catch look-alikes, run-time names
// cannot carry sentences, and the signed statement names the host in ASCII.
import { nameSkeleton, ownPageProblem, runTimeNameProblem } from '../../../../src/domain/clients/client_presentation.js';
import { askerWords } from '../../../../src/features/interaction/challenge_text.js';

const RESERVED = ['Signet', 'Your wallet', 'Test Website'];

test('look-alikes share a skeleton: case, width, accents, Cyrillic and Greek letters, digits, rn for m, spaces', () => {
  expect(nameSkeleton('Signet')).toBe(nameSkeleton('ＳＩＧＮＥＴ'));
  expect(nameSkeleton('Signet')).toBe(nameSkeleton('S1gnеt')); // digit one, Cyrillic "е"
  expect(nameSkeleton('Signet')).toBe(nameSkeleton('Sígnet'));
  expect(nameSkeleton('Your wallet')).toBe(nameSkeleton('your-wa11et'));
  expect(nameSkeleton('modern')).toBe(nameSkeleton('rnodern'));
  expect(nameSkeleton('Corner Shop')).not.toBe(nameSkeleton('Signet'));
});

test("a run-time client's name: refused when it passes for a reserved name or the signed text, taken otherwise", () => {
  expect(runTimeNameProblem('Corner Shop', RESERVED)).toBeUndefined();
  expect(runTimeNameProblem('Shop.com', RESERVED)).toBeUndefined();
  expect(runTimeNameProblem('Épicerie du coin', RESERVED)).toBeUndefined();
  expect(runTimeNameProblem('Signet Login', RESERVED)).toMatch(/^is too close to "Signet"/);
  expect(runTimeNameProblem('Test Wеbsite', RESERVED)).toMatch(/^is too close to "Test Website"/);
  expect(runTimeNameProblem('Shop. By signing', RESERVED)).toMatch(/^may hold only/);
  expect(runTimeNameProblem('Shop  Two', RESERVED)).toMatch(/^may hold only/);
  expect(runTimeNameProblem('Shop: you share all', RESERVED)).toMatch(/^may hold only/);
  expect(runTimeNameProblem('Shop asks you', RESERVED)).toBe('must not hold "asks you": it could pass for the text owners sign');
});

test('a page of the client is shown only as https on a redirect host', () => {
  const hosts = ['shop.example'];
  expect(ownPageProblem('https://shop.example/privacy', hosts)).toBeUndefined();
  expect(ownPageProblem('http://shop.example/privacy', hosts)).toBe('must be an https URL');
  expect(ownPageProblem('https://user:pw@shop.example/', hosts)).toBe('must not hold a user name or password');
  expect(ownPageProblem('https://evil.example/', hosts)).toBe('must be on the host of a redirect URI (shop.example)');
});

test('the signed text names who asks in ASCII, with the host; a run-time name quoted', () => {
  expect(askerWords({ name: 'Test Website', host: 'website.example' })).toBe('Test Website (website.example)');
  expect(askerWords({ name: "Corner Shop's", host: 'shop.example', runTime: true })).toBe("'Corner Shops' (shop.example)");
  expect(askerWords({ name: 'Épicerie', host: 'shop.example', runTime: true })).toBe("'Epicerie' (shop.example)");
  expect(askerWords({ name: '街角の店', host: 'shop.example', runTime: true })).toBe('shop.example');
  expect(askerWords({ name: 'Shop' })).toBe('Shop');
});
