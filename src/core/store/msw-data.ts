// Replaced at build by one bundle (scripts/bundle-msw-data.mjs; BENCHMARKS.md, "A/B of each trick").
export { Collection, Query } from '@msw/data'
