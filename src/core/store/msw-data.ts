// Replaced at build by one bundle (scripts/bundle-msw-data.mjs; BENCHMARKS.md, "A/B of each trick"): @msw/data
// imports es-toolkit barrels for five functions.
export { Collection, Query } from '@msw/data'
