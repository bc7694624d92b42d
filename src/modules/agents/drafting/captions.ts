/**
 * A photo's caption set as a paragraph above the story, told by the credit line under it
 * ("Natalie Naccache | Bloomberg | Getty Images"): the caption says what the photo shows
 * ("Sheikh Mohammed ... passes a Boeing Co. 787-10 passenger aircraft ..."), not the story,
 * and a draft from it would describe the picture. The rule is named data (captions.test.ts
 * checks its example and counter-example).
 */
export const PHOTO_CREDIT = {
  id: 'caption_before_credit',
  // A photographer and the agencies, separated by bars or slashes, and no sentence's end: the credit line under a photo.
  pattern: /^[\p{L}.'’ -]{2,40}(?:\s*[|/]\s*[\p{L}.'’& -]{2,40}){0,3}\s*[|/]\s*(?:Getty Images|AP(?: Photo)?|Reuters|AFP|Shutterstock|EPA(?:-EFE)?|Alamy|Bloomberg|Sipa(?: USA)?|Zuma(?: Press)?|PA(?: Images| Wire)?)\s*$/iu,
  example: 'Natalie Naccache | Bloomberg | Getty Images',
  counterExample: 'Bloomberg reported the deal on Wednesday, citing people familiar with it.',
};

/** The blocks of a section without each caption that a credit line follows (and without the credit line). */
export function withoutCaptions(blocks: string[]): string[] {
  return blocks.filter((block, i) => !PHOTO_CREDIT.pattern.test(block) && !PHOTO_CREDIT.pattern.test(blocks[i + 1] ?? ''));
}
