import type { HttpHandler } from 'msw'
import { createClock, type SandboxClock } from './clock/create-clock.js'
import { createApiScope } from './contract/create-api-scope.js'
import { createRouter } from './contract/create-router.js'
import { openapiDocument } from './contract/openapi-document.js'
import { createApiHandler, type ApiHandlerParts } from './handlers/create-api-handler.js'
import { createPet } from './handlers/create-pet.js'
import { getPet } from './handlers/get-pet.js'
import { listPets } from './handlers/list-pets.js'
import { createKeyRing } from './keys/create-key-ring.js'
import type { ApiKey } from './keys/key-config.js'
import { createCors } from './policies/create-cors.js'
import { createDeprecations } from './policies/create-deprecations.js'
import { createRateLimiter, type QuotaState } from './policies/create-rate-limiter.js'
import { createRequestValidator } from './policies/create-request-validator.js'
import { resolveOptions } from './resolve-options.js'
import type { SandboxOptions } from './sandbox-options.js'
import { createPetStore } from './store/create-pet-store.js'
import type { NewPet, Pet } from './store/pet.js'
import { seedPets } from './store/seed-pets.js'
import { ConfigError } from './errors/config-error.js'

/** A running sandbox: its msw handlers, and the controls tests use to arrange and inspect it. */
export interface Sandbox {
  /** The msw request handlers of the API: `setupServer(...sandbox.handlers)`. */
  readonly handlers: HttpHandler[]
  /**
   * The same, claiming the whole origin: paths outside the API prefix get a 404 Error body with
   * rate-limit headers. The HTTP server (`petstore-sandbox start`) serves these.
   */
  readonly originHandlers: HttpHandler[]
  /** The sandbox clock: windows, bans and the sunset read it. `set` and `advance` move it. */
  readonly clock: SandboxClock
  /** The configured keys with their resolved limits. */
  readonly keys: readonly ApiKey[]
  /** Restores the seeded pets and forgets every rate-limit counter and ban. The clock stays. */
  reset(): Promise<void>
  /** Resolves once the seeded pets are in the store. Requests wait for it by themselves. */
  ready(): Promise<void>
  /** Arrange and read stored pets without HTTP. */
  readonly pets: {
    /** Every stored pet, ascending by id. */
    all(): Pet[]
    /** The pet with this id, if stored. */
    get(id: number): Pet | undefined
    /** Stores a pet as `createPet` would (an id is assigned) and returns it. */
    create(pet: NewPet): Promise<Pet>
  }
  /** Inspect and arrange a key's quota without looping over requests. */
  readonly quota: {
    /** The minute and day windows and the ban state of `key`. */
    get(key: string): QuotaState
    /** Sets what is left (`remaining`, or per window) and starts or lifts a ban (`banned`). */
    set(key: string, change: { remaining?: number; minuteRemaining?: number; dayRemaining?: number; banned?: boolean | number }): QuotaState
  }
}

/**
 * Creates a stateful, in-memory Animal Store API: msw handlers plus the state behind them.
 *
 * @example
 * import { setupServer } from 'msw/node'
 * import { createSandbox } from 'petstore-sandbox'
 *
 * const sandbox = createSandbox({ seed: 7, pets: 20 })
 * const server = setupServer(...sandbox.handlers)
 * server.listen()
 * const response = await fetch('http://api.test/v1/pets?status=sold', {
 *   headers: { Authorization: 'Bearer sandbox-free-key' },
 * })
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const resolved = resolveOptions(options)
  const clock = createClock(resolved.now)
  const router = createRouter(openapiDocument)
  const store = createPetStore({ seed: () => seedPets(resolved.seed, resolved.pets) })
  const keyRing = createKeyRing(resolved.keys)
  const rateLimiter = createRateLimiter({ now: clock.now, banAfter: resolved.banAfter, banSeconds: resolved.banSeconds })
  // Prism is not loaded here any more: valid requests pass the validator's fast check without it,
  // and loading it (200 ms or more) blocked the first requests of every start-up. The first
  // request that needs it, an invalid one, loads it.
  const validator = createRequestValidator(openapiDocument)

  const parts: Omit<ApiHandlerParts, 'scope'> = {
    router,
    operations: {
      listPets: listPets(store),
      createPet: createPet(store, resolved.defaultStatus),
      getPet: getPet(store),
    },
    keyRing,
    rateLimiter,
    validator,
    deprecations: createDeprecations(router.operations(), resolved.deprecation),
    cors: createCors(resolved.corsOrigins),
    clock,
    ready: store.ready,
    onUnexpectedError: resolved.onUnexpectedError,
  }
  const handlers = [createApiHandler({ ...parts, scope: createApiScope(resolved.baseUrl) })]
  const originHandlers = [createApiHandler({ ...parts, scope: createApiScope(resolved.baseUrl, true) })]
  void store.reset()

  const keyNamed = (key: string): ApiKey => {
    const found = keyRing.find(key)
    if (found === undefined) throw new ConfigError(`no configured key ${JSON.stringify(key)}`)
    return found
  }

  return {
    handlers,
    originHandlers,
    clock,
    keys: resolved.keys,
    reset() {
      rateLimiter.clear()
      return store.reset()
    },
    ready: store.ready,
    pets: {
      all: store.all,
      get: store.get,
      async create(pet) {
        await store.ready()
        return store.create(pet)
      },
    },
    quota: {
      get: (key) => rateLimiter.inspect(`key:${key}`, keyNamed(key)),
      set: (key, change) => rateLimiter.arrange(`key:${key}`, keyNamed(key), change),
    },
  }
}
