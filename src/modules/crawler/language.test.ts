import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pageLanguage } from './language.ts';

describe('the language a page is written for', () => {
  it('is what <html> declares, else its content, else its URL', () => {
    assert.equal(pageLanguage('https://example.org/', { lang: 'en-GB', contentLang: 'fr' }), 'en-GB');
    assert.equal(pageLanguage('https://example.org/', { lang: null, contentLang: 'fr' }), 'fr');
    assert.equal(pageLanguage('https://example.org/de/guide/', { lang: null, contentLang: undefined }), 'de');
  });

  it('is not a declared tag that names no language (lang="c", a template\'s POSIX locale): the next source says', () => {
    assert.equal(pageLanguage('https://example.org/news/', { lang: 'c', contentLang: undefined }), null);
    assert.equal(pageLanguage('https://example.org/news/', { lang: 'xx-invalid-tag', contentLang: 'en' }), 'en');
  });
});
