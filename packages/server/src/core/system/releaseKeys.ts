// Public keys whose release signatures this version trusts. They ship inside the running
// version, so an uploaded package cannot bring its own trust with it. The private half of the
// project key is kept outside the repository; `npm run package` signs with it when
// LUCKY_RELEASE_SIGNING_KEY names it. Admins may add keys in `<config dir>/trusted-keys/`.
export const BUILT_IN_RELEASE_KEYS: readonly { name: string; pem: string }[] = [
  {
    // key id f1492102f0ff79ec
    name: 'Lucky console release key 2026',
    pem: '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAjYA+zxzjMLHOZNqGAGhFuTUyDZtIebX1S7rH9O/FZCA=\n-----END PUBLIC KEY-----\n',
  },
];
