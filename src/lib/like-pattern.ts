/** A LIKE pattern that matches `text` literally anywhere (its own %, _ and \ escaped): a user's search is never a pattern. */
export const containing = (text: string) => `%${text.replace(/[\\%_]/g, '\\$&')}%`;
