// Generated from fixtures/spec-openapi.yaml by scripts/generate-contract.mjs. Do not edit.
// Regenerate with `npm run generate`; `npm run generate -- --check` fails when this file is stale.
import type { OpenApiDocument } from './openapi-document-type.js'

export const specOpenapiDocument: OpenApiDocument = {
  "openapi": "3.1.0",
  "info": {
    "title": "Animal Store API (the specification's own terms)",
    "version": "1.0.0",
    "description": "The Animal Store service interface, version 1.0.0, stating only what its specification states:\nevery constraint here is cited by the specification's section (\"spec §4.1\" and so on), and\nnone of the sandbox's decisions (docs/decisions.md) is in it. Where the specification says\n\"not shown\", this document says nothing. `verify` holds a backend's answers to it (the seed\npromise `matches-contract`); the sandbox's stricter contract is fixtures/openapi.yaml.\n"
  },
  "servers": [
    {
      "url": "https://api.animal-store.example/v1",
      "description": "Production ({base_url}); spec §1 and §9, both addresses end with /v1."
    },
    {
      "url": "https://staging.animal-store.example/v1",
      "description": "Staging ({staging_base_url})."
    }
  ],
  "security": [
    {
      "bearerAuth": []
    }
  ],
  "paths": {
    "/pets": {
      "get": {
        "operationId": "listPets",
        "summary": "List animals (spec §4.1)",
        "description": "Returns a paginated list of animals, optionally filtered by status.",
        "parameters": [
          {
            "name": "limit",
            "in": "query",
            "required": false,
            "description": "Maximum number of animals to return (spec §4.1, §8 \"Other limits\").",
            "schema": {
              "type": "integer",
              "minimum": 1,
              "maximum": 100,
              "default": 20
            }
          },
          {
            "name": "status",
            "in": "query",
            "required": false,
            "description": "Filter by availability status.",
            "schema": {
              "$ref": "#/components/schemas/PetStatus"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "Pets (array of Pet).",
            "headers": {
              "X-RateLimit-Limit": {
                "$ref": "#/components/headers/X-RateLimit-Limit"
              },
              "X-RateLimit-Remaining": {
                "$ref": "#/components/headers/X-RateLimit-Remaining"
              },
              "X-RateLimit-Reset": {
                "$ref": "#/components/headers/X-RateLimit-Reset"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Pets"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "429": {
            "$ref": "#/components/responses/TooManyRequests"
          },
          "default": {
            "$ref": "#/components/responses/OtherError"
          }
        }
      },
      "post": {
        "operationId": "createPet",
        "summary": "Add an animal (spec §4.2)",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/NewPet"
              }
            }
          }
        },
        "responses": {
          "201": {
            "description": "Pet, the created animal including its assigned id.",
            "headers": {
              "X-RateLimit-Limit": {
                "$ref": "#/components/headers/X-RateLimit-Limit"
              },
              "X-RateLimit-Remaining": {
                "$ref": "#/components/headers/X-RateLimit-Remaining"
              },
              "X-RateLimit-Reset": {
                "$ref": "#/components/headers/X-RateLimit-Reset"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Pet"
                }
              }
            }
          },
          "400": {
            "description": "The body lacks required fields or contains invalid values (spec §4.2, §7).",
            "headers": {
              "X-RateLimit-Limit": {
                "$ref": "#/components/headers/X-RateLimit-Limit"
              },
              "X-RateLimit-Remaining": {
                "$ref": "#/components/headers/X-RateLimit-Remaining"
              },
              "X-RateLimit-Reset": {
                "$ref": "#/components/headers/X-RateLimit-Reset"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "429": {
            "$ref": "#/components/responses/TooManyRequests"
          },
          "default": {
            "$ref": "#/components/responses/OtherError"
          }
        }
      }
    },
    "/pets/{petId}": {
      "get": {
        "operationId": "getPet",
        "summary": "Get an animal (spec §4.3)",
        "description": "Deprecated; to be removed on 5 December 2030, replaced by GET /pets with the status filter (spec §9).",
        "deprecated": true,
        "parameters": [
          {
            "name": "petId",
            "in": "path",
            "required": true,
            "description": "The identifier of the animal.",
            "schema": {
              "type": "integer",
              "format": "int64"
            }
          }
        ],
        "responses": {
          "200": {
            "description": "Pet.",
            "headers": {
              "X-RateLimit-Limit": {
                "$ref": "#/components/headers/X-RateLimit-Limit"
              },
              "X-RateLimit-Remaining": {
                "$ref": "#/components/headers/X-RateLimit-Remaining"
              },
              "X-RateLimit-Reset": {
                "$ref": "#/components/headers/X-RateLimit-Reset"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Pet"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "404": {
            "description": "The requested animal does not exist (spec §4.3, §7).",
            "headers": {
              "X-RateLimit-Limit": {
                "$ref": "#/components/headers/X-RateLimit-Limit"
              },
              "X-RateLimit-Remaining": {
                "$ref": "#/components/headers/X-RateLimit-Remaining"
              },
              "X-RateLimit-Reset": {
                "$ref": "#/components/headers/X-RateLimit-Reset"
              }
            },
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Error"
                }
              }
            }
          },
          "429": {
            "$ref": "#/components/responses/TooManyRequests"
          },
          "default": {
            "$ref": "#/components/responses/OtherError"
          }
        }
      }
    }
  },
  "components": {
    "securitySchemes": {
      "bearerAuth": {
        "type": "http",
        "scheme": "bearer",
        "description": "`Authorization: Bearer <API_KEY>` on every operation (spec §5)."
      }
    },
    "schemas": {
      "PetStatus": {
        "type": "string",
        "enum": [
          "available",
          "pending",
          "sold"
        ]
      },
      "NewPet": {
        "type": "object",
        "required": [
          "name",
          "categoryId"
        ],
        "properties": {
          "name": {
            "type": "string"
          },
          "categoryId": {
            "type": "integer",
            "format": "int64"
          },
          "status": {
            "$ref": "#/components/schemas/PetStatus"
          }
        }
      },
      "Pet": {
        "type": "object",
        "description": "The NewPet fields plus id (spec §2).",
        "required": [
          "id",
          "name",
          "categoryId"
        ],
        "properties": {
          "id": {
            "type": "integer",
            "format": "int64"
          },
          "name": {
            "type": "string"
          },
          "categoryId": {
            "type": "integer",
            "format": "int64"
          },
          "status": {
            "$ref": "#/components/schemas/PetStatus"
          }
        }
      },
      "Pets": {
        "type": "array",
        "items": {
          "$ref": "#/components/schemas/Pet"
        }
      },
      "Error": {
        "type": "object",
        "required": [
          "code",
          "message",
          "status"
        ],
        "properties": {
          "code": {
            "type": "string"
          },
          "message": {
            "type": "string"
          },
          "status": {
            "type": "integer",
            "description": "The HTTP status code (spec §2)."
          }
        }
      }
    },
    "headers": {
      "X-RateLimit-Limit": {
        "required": true,
        "description": "The limit that applies to the client.",
        "schema": {
          "type": "integer"
        }
      },
      "X-RateLimit-Remaining": {
        "required": true,
        "description": "Requests remaining in the current window.",
        "schema": {
          "type": "integer"
        }
      },
      "X-RateLimit-Reset": {
        "required": true,
        "description": "Unix timestamp at which the limit resets.",
        "schema": {
          "type": "integer"
        }
      },
      "Retry-After": {
        "required": true,
        "description": "The time to wait before retrying (spec §8); its unit is not shown.",
        "schema": {
          "type": "string"
        }
      }
    },
    "responses": {
      "Unauthorized": {
        "description": "Missing or invalid API key (spec §5).",
        "headers": {
          "X-RateLimit-Limit": {
            "$ref": "#/components/headers/X-RateLimit-Limit"
          },
          "X-RateLimit-Remaining": {
            "$ref": "#/components/headers/X-RateLimit-Remaining"
          },
          "X-RateLimit-Reset": {
            "$ref": "#/components/headers/X-RateLimit-Reset"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      },
      "TooManyRequests": {
        "description": "Rate limit exceeded (spec §7, §8); the body of a 429 is not shown.",
        "headers": {
          "X-RateLimit-Limit": {
            "$ref": "#/components/headers/X-RateLimit-Limit"
          },
          "X-RateLimit-Remaining": {
            "$ref": "#/components/headers/X-RateLimit-Remaining"
          },
          "X-RateLimit-Reset": {
            "$ref": "#/components/headers/X-RateLimit-Reset"
          },
          "Retry-After": {
            "$ref": "#/components/headers/Retry-After"
          }
        }
      },
      "OtherError": {
        "description": "Any status the specification does not list for the operation: \"Error responses carry an\nError body\" (spec §7); which statuses occur is not shown.\n",
        "headers": {
          "X-RateLimit-Limit": {
            "$ref": "#/components/headers/X-RateLimit-Limit"
          },
          "X-RateLimit-Remaining": {
            "$ref": "#/components/headers/X-RateLimit-Remaining"
          },
          "X-RateLimit-Reset": {
            "$ref": "#/components/headers/X-RateLimit-Reset"
          }
        },
        "content": {
          "application/json": {
            "schema": {
              "$ref": "#/components/schemas/Error"
            }
          }
        }
      }
    }
  }
}
