// The auth feature's public surface (decision 0016): what code outside the feature may import. The app's services
// give the session these calls to refresh and end itself.
export { postLogout, postRefreshToken } from './api/auth-api.ts';
