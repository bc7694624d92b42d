import { Type, type TSchema } from 'typebox';

/**
 * The highest page number accepted. Without a bound `page=1e20` passes as an integer and
 * its offset overflows PostgreSQL's bigint (a 500); a million pages of the largest size is
 * far past any list this service holds.
 */
export const MAX_PAGE = 1_000_000;

/** `page` (1..MAX_PAGE, default 1) and `page_size` (1..max, default given); outside the range -> 422. */
export const pageQueryProperties = (defaultSize: number, maxSize: number) => ({
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1, description: `Page number, 1 to ${MAX_PAGE}` })),
  page_size: Type.Optional(
    Type.Integer({ minimum: 1, maximum: maxSize, default: defaultSize, description: `Items per page, 1 to ${maxSize}` }),
  ),
});

/** The paged list envelope of the specification. */
export const Paged = <T extends TSchema>(item: T) =>
  Type.Object({
    items: Type.Array(item),
    total: Type.Integer({ minimum: 0 }),
    page: Type.Integer({ minimum: 1 }),
    page_size: Type.Integer({ minimum: 1 }),
  });
