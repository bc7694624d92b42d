import { Type, type TSchema } from 'typebox';

/** `page` (>= 1, default 1) and `page_size` (1..max, default given); outside the range -> 422. */
export const pageQueryProperties = (defaultSize: number, maxSize: number) => ({
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1, description: 'Page number, from 1' })),
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
