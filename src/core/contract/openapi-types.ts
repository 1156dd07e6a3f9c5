// Generated from fixtures/openapi.yaml by scripts/generate-contract.mjs. Do not edit.
// Regenerate with `npm run generate`; `npm run generate -- --check` fails when this file is stale.
export interface paths {
    "/pets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List animals
         * @description Returns the first `limit` animals in ascending `id` order, optionally filtered by status.
         *     sandbox - no other paging parameter exists (D8).
         */
        get: operations["listPets"];
        put?: never;
        /** Add an animal */
        post: operations["createPet"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pets/{petId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an animal (deprecated)
         * @deprecated
         * @description Deprecated, removed on 5 December 2030. Use `GET /pets` with the `status` filter.
         *     sandbox - every response carries `Deprecation`, `Sunset` and `Link`; from the sunset on the
         *     operation answers 410 (D18).
         */
        get: operations["getPet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @enum {string} */
        PetStatus: "available" | "pending" | "sold";
        /** @description sandbox - other properties (a client-sent `id` included) are ignored (D7). */
        NewPet: {
            /** @description sandbox - 1 to 200 characters (Unicode code points) as sent, at least one of them not white space; stored trimmed; not unique (D5). */
            name: string;
            /**
             * Format: int64
             * @description sandbox - any safe integer of 1 or more; categories are not checked (D6).
             */
            categoryId: number;
            /** @description sandbox - available when left out (D4). */
            status?: components["schemas"]["PetStatus"];
        };
        /** @description sandbox - no properties beyond these (D7). */
        Pet: {
            /**
             * Format: int64
             * @description Assigned by the service. sandbox - ascending, never reused (D7).
             */
            id: number;
            /** @description sandbox - 1 to 200 characters, as stored (trimmed) (D5). */
            name: string;
            /**
             * Format: int64
             * @description sandbox - 1 or more (D6).
             */
            categoryId: number;
            status?: components["schemas"]["PetStatus"];
        };
        Pets: components["schemas"]["Pet"][];
        Error: {
            /** @description sandbox - stable snake_case code, one per condition (D2). */
            code: string;
            /** @description sandbox - never empty; says what was wrong, naming the field (D2). */
            message: string;
            /** @description The HTTP status code. sandbox - the answer's own, 400 to 599 (D2). */
            status: number;
        };
    };
    responses: {
        /** @description Invalid parameters or body (`invalid_request`). sandbox - integers are plain decimal digits and integer or enumerated parameters must not be empty (D3); a body must be valid UTF-8 JSON without a byte order mark or a repeated key (D9). */
        BadRequest: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description API key missing or invalid (`unauthorized`). */
        Unauthorized: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description sandbox - body over 1 MiB (`payload_too_large`, D9). */
        PayloadTooLarge: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description sandbox - body not sent as `application/json` (`unsupported_media_type`, D9). */
        UnsupportedMediaType: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Rate limit exceeded (`rate_limited`) or key temporarily banned (`temporarily_banned`). */
        TooManyRequests: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "Retry-After": components["headers"]["Retry-After"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description sandbox - the sandbox stores at most its `maxPets` (`--max-pets`, default 1000000) pets; a create beyond it stores nothing (`storage_full`) and spends quota like any answered request. */
        InsufficientStorage: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Any other error, as an Error body whose `status` equals the HTTP status. */
        UnexpectedError: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description An error of the deprecated getPet; carries the deprecation headers too. */
        DeprecatedError: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                Link: components["headers"]["Link"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description 429 of the deprecated getPet. */
        DeprecatedTooManyRequests: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "Retry-After": components["headers"]["Retry-After"];
                Deprecation: components["headers"]["Deprecation"];
                Sunset: components["headers"]["Sunset"];
                Link: components["headers"]["Link"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description sandbox - the limit of the binding window, the one with fewer requests left (D13). */
        "X-RateLimit-Limit": number;
        /** @description Requests remaining in the binding window. sandbox - never negative (D13). */
        "X-RateLimit-Remaining": number;
        /** @description Unix time in seconds at which the binding window resets. sandbox - of the binding window (D13). */
        "X-RateLimit-Reset": number;
        /** @description sandbox - whole seconds to wait, at least 1 (D14). */
        "Retry-After": number;
        /** @description sandbox - RFC 9745 structured date, `@<unix seconds>` (D18). */
        Deprecation: string;
        /** @description sandbox - RFC 8594 HTTP-date of the removal (D18). */
        Sunset: string;
        /** @description sandbox - the successor operation, `</v1/pets>; rel="successor-version"` (D18). */
        Link: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listPets: {
        parameters: {
            query?: {
                /** @description Maximum number of animals to return. sandbox - an int32, in plain decimal digits (D3). */
                limit?: number;
                /** @description Filter by availability status. */
                status?: components["schemas"]["PetStatus"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The animals, ascending by id. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pets"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            429: components["responses"]["TooManyRequests"];
            default: components["responses"]["UnexpectedError"];
        };
    };
    createPet: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewPet"];
            };
        };
        responses: {
            /** @description The created animal, including its assigned id. */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pet"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            507: components["responses"]["InsufficientStorage"];
            default: components["responses"]["UnexpectedError"];
        };
    };
    getPet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The identifier of the animal. sandbox - any int64 in plain decimal digits; one that names no animal (0, a negative one, one past every id) is a 404 (D37), and what is no int64 (`abc`, `1.5`, 2^63) a 400 (D3). */
                petId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The animal. */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pet"];
                };
            };
            400: components["responses"]["DeprecatedError"];
            401: components["responses"]["DeprecatedError"];
            404: components["responses"]["DeprecatedError"];
            410: components["responses"]["DeprecatedError"];
            429: components["responses"]["DeprecatedTooManyRequests"];
            default: components["responses"]["DeprecatedError"];
        };
    };
}
