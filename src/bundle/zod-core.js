// zod/v4/core as the Worker bundle's zod namespace carries it (./zod.js): English messages only.
import en from "zod/v4/locales/en.js";

export * from "zod/v4/core";
export const locales = { en };
