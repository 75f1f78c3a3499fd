import { Feed } from 'feed';
import { dateToInstant } from '../dates.ts';
import { stripXmlForbidden } from '../xml-text.ts';
import type { Site } from '../site.ts';
import { entryUpdated, feedReviews, reviewAnchorUrl, reviewHeadline } from './feed-entries.ts';

// The `feed` package wraps titles and content in CDATA typed as HTML, so plain text
// is escaped as HTML; escaping `>` also keeps a `]]>` in a review from ending the CDATA.
function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function textToHtml(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((para) => `<p>${escapeHtml(para).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

/**
 * Atom (RFC 4287) of the newest reviews, with rel="self" and rel="hub" links.
 * The content check refuses the characters XML 1.0 forbids, but the feed is pushed
 * to every subscriber, and one such character makes strict readers drop all of it:
 * the writer strips them from the whole document on its own as well (in element
 * text, CDATA and attributes alike, where they can never be well-formed).
 */
export function atomFeed(site: Site): string {
  const { business, urls } = site;
  const feed = new Feed({
    id: urls.home,
    title: `${business.name}: verified customer reviews`,
    description: `The newest verified customer reviews of ${business.name}.`,
    link: urls.home,
    feedLinks: { atom: urls.atomFeed },
    hub: urls.hub,
    // From the content, never the clock: identical content gives identical bytes.
    updated: new Date(dateToInstant(site.updated ?? '1970-01-01')),
    generator: business.name,
    copyright: `Reviews by their authors, published by ${business.name}`,
    author: { name: business.name, link: business.url },
  });
  for (const review of feedReviews(site.reviews)) {
    const response = review.response
      ? `<p><strong>Response from ${escapeHtml(business.name)} (${review.response.date}):</strong></p>${textToHtml(review.response.text)}`
      : '';
    feed.addItem({
      id: `${urls.home}#review-${review.id}`,
      link: reviewAnchorUrl(urls.home, review),
      title: escapeHtml(reviewHeadline(review)),
      date: new Date(dateToInstant(entryUpdated(review))),
      published: new Date(dateToInstant(review.date)),
      content: `<p>Rating: ${review.rating} out of 5</p>${textToHtml(review.text)}${response}`,
      author: [{ name: review.author.name }],
      // Ids only: `feed` does not escape `<` or quotes in category attributes.
      category: review.services.map((s) => ({ term: s.id })),
    });
  }
  return stripXmlForbidden(feed.atom1());
}
