// The build replaces this module with one bundle of what it exports (scripts/bundle-msw-data.mjs, BENCHMARKS.md,
// "A/B of each trick"): @msw/data imports the es-toolkit barrels for five functions.
export { Collection, Query } from '@msw/data'
