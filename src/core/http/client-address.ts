/**
 * The header through which a transport tells the sandbox who the client is, for the per-address
 * rate limit of requests without a valid key (D16). The node:http adapter overwrites whatever a
 * client sent in it with the socket's address; in-process, tests may set it to play several clients.
 */
export const CLIENT_ADDRESS_HEADER = 'x-sandbox-client-address'

/** The address used when no transport named one (in-process and in the browser). */
export const LOCAL_CLIENT = 'local'
