/**
 * A pets file as a user writes one (ids absent, one given, statuses partly absent) and the pets the
 * sandbox serves from it: ids ascend in file order from the one given (docs/cli.md, `--pets-file`).
 */
export const GIVEN_PETS = [
  { name: 'Biscuit', categoryId: 2, status: 'sold' },
  { id: 10, name: 'Mango', categoryId: 1, status: 'pending' },
  { name: 'Olive', categoryId: 3 },
]

export const SERVED_PETS = [
  { id: 1, name: 'Biscuit', categoryId: 2, status: 'sold' },
  { id: 10, name: 'Mango', categoryId: 1, status: 'pending' },
  { id: 11, name: 'Olive', categoryId: 3 },
]
