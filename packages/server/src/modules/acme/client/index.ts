// The ACME client's entry: what the module's order runner imports.
export { ariCertId, certIdOf } from './ari.js';
export { AcmeClient, identifiersOf, links } from './client.js';
export { createCsr } from './csr.js';
export { generateKeyPem, jwkThumbprint, loadKey } from './keys.js';
export { AcmeNetworkError, AcmeProblem, AcmeProtocolError, reasonOf } from './problem.js';
export type * from './types.js';
