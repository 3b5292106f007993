// A client's record as its readers get it: `find` gives each caller a copy of its own to change,
// `look` one frozen copy shared by readers that only read it (the engine among them); both
// follow a change saved in this process at once.
import { createClientRecords } from '../../../../src/infra/store/client_records.js';
import { createMemoryStore } from '../../../../src/infra/store/memory_store.js';

test('find gives a copy of its own each time; look one shared frozen record; a save is seen at once by both', async () => {
  const records = createClientRecords(createMemoryStore());
  await records.save({ client_id: 'site', client_name: 'Site', redirect_uris: ['https://site.example/cb'] });

  const [mine, yours] = [await records.find('site'), await records.find('site')];
  expect(mine).toEqual(yours);
  expect(mine).not.toBe(yours);
  mine!.client_name = 'changed by one caller';
  expect((await records.find('site'))!.client_name).toBe('Site');

  const looked = await records.look('site');
  expect(looked).toBe(await records.look('site'));
  expect(Object.isFrozen(looked)).toBe(true);
  expect(looked!.client_name).toBe('Site');

  await records.save({ client_id: 'site', client_name: 'Site, renamed', redirect_uris: ['https://site.example/cb'] });
  expect((await records.look('site'))!.client_name).toBe('Site, renamed');
  expect((await records.find('site'))!.client_name).toBe('Site, renamed');
  expect(await records.look('nobody')).toBeUndefined();
});
