// The users feature's public surface (decision 0016): the signed-in user's own data, which sign-in reads.
export { getUserData, postSetLanguage } from './api/user-api.ts';
