/** @type {import('jest').Config} */
export default {
  // msw's guidance for Jest with jsdom: this environment puts Node's fetch, streams and encoders
  // back and resolves packages by their Node export conditions rather than the browser's.
  testEnvironment: 'jest-fixed-jsdom',
  testMatch: ['<rootDir>/suite/**/*.test.js'],
  // msw 3 and the sandbox ship ES modules only, which Jest loads untransformed under --experimental-vm-modules.
  transform: {},
}
