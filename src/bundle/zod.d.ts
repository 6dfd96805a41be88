// The types of ./zod.js (the Worker bundle's "zod"): zod's own.
export * from "zod";
export { default } from "zod";
