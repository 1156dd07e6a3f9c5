/** The key verify sends to check that a wrong key is refused; no backend should ever accept it. */
export const WRONG_KEY = 'petstore-sandbox-verify-not-a-key'
