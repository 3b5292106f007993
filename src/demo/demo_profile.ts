// The demo identity's profile, so a first login has something to share.
import type { Profile } from '../profile/profile.js';

export const DEMO_PROFILE: Profile = {
  given_name: 'Ada',
  family_name: 'Lovelace',
  email: 'ada@example.org',
  phone_number: '+442071234567',
  address: { street_address: '12 St James Square', locality: 'London', postal_code: 'SW1Y 4JH', country: 'GB' },
  website: 'https://example.org/ada',
};
