// The types of ./no-social-providers.js (the Worker bundle's "@better-auth/core/social-providers").
export { socialProviders, socialProviderList, SocialProviderListEnum } from "@better-auth/core/social-providers";
