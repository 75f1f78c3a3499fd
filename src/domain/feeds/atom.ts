/**
 * Atom (RFC 4287) of the newest reviews, written here rather than by a feed library:
 * titles are plain text (`type="text"`, which feed readers show as typed; the `feed`
 * package could only mark them `type="html"`, so `&` showed as `&amp;`), and every text
 * is escaped as XML text, with no CDATA section a review could end early.
 */
import { dateToInstant } from '../dates.ts';
import type { Review } from '../schemas/review.ts';
import { stripXmlForbidden } from '../xml-text.ts';
import type { Site } from '../site.ts';
import { entryUpdated, businessLanguage, feedReviews, reviewEntryId, reviewHeadline } from './feed-entries.ts';

/**
 * Text as XML character data or an attribute value (double-quoted). The characters
 * XML 1.0 forbids even escaped are dropped: the content check refuses them, but the
 * feed is pushed to every subscriber and one of them makes strict readers drop it all.
 */
export function xmlText(text: string): string {
  return stripXmlForbidden(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Plain text as HTML paragraphs (blank lines) and line breaks, itself escaped for HTML. */
function textToHtml(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((para) => `<p>${xmlText(para).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

const instant = (date: string) => dateToInstant(date);

/** The entry's HTML content: the rating, the review and the owner's response, if any. */
function entryContent(review: Review, businessName: string): string {
  const response = review.response
    ? `<p><strong>Response from ${xmlText(businessName)} (${review.response.date}):</strong></p>${textToHtml(review.response.text)}`
    : '';
  return `<p>Rating: ${review.rating} out of 5</p>${textToHtml(review.text)}${response}`;
}

function entry(review: Review, site: Site): string[] {
  const { business, urls } = site;
  return [
    '    <entry>',
    `        <title type="text">${xmlText(reviewHeadline(review))}</title>`,
    // Readers know an entry by its id, so it stays the one entries were first published with.
    `        <id>${xmlText(reviewEntryId(urls.home, review))}</id>`,
    `        <link rel="alternate" type="text/html" href="${xmlText(review.url)}"/>`,
    `        <updated>${instant(entryUpdated(review))}</updated>`,
    `        <published>${instant(review.date)}</published>`,
    `        <author><name>${xmlText(review.author.name)}</name></author>`,
    // The HTML is escaped once more as XML text: a reader unescapes it, then renders it.
    `        <content type="html">${xmlText(entryContent(review, business.name))}</content>`,
    ...review.services.map((service) => `        <category term="${xmlText(service.id)}" label="${xmlText(service.name)}"/>`),
    '    </entry>',
  ];
}

/** The feed, with rel="self" and rel="hub" links (it is a WebSub topic); same content, same bytes. */
export function atomFeed(site: Site): string {
  const { business, urls } = site;
  const name = xmlText(business.name);
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${xmlText(businessLanguage(business))}">`,
    `    <id>${xmlText(urls.home)}</id>`,
    `    <title type="text">${name}: verified customer reviews</title>`,
    `    <subtitle type="text">The newest verified customer reviews of ${name}.</subtitle>`,
    // From the content, never the clock: identical content gives identical bytes.
    `    <updated>${instant(site.updated ?? '1970-01-01')}</updated>`,
    `    <generator>${name}</generator>`,
    `    <author><name>${name}</name><uri>${xmlText(business.url)}</uri></author>`,
    `    <link rel="alternate" type="text/html" href="${xmlText(urls.home)}"/>`,
    `    <link rel="self" type="application/atom+xml" href="${xmlText(urls.atomFeed)}"/>`,
    `    <link rel="hub" href="${xmlText(urls.hub)}"/>`,
    `    <rights type="text">Reviews by their authors, published by ${name}</rights>`,
    ...feedReviews(site.reviews).flatMap((review) => entry(review, site)),
    '</feed>',
  ];
  return `${lines.join('\n')}\n`;
}
