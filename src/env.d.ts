/** What the server hands an on-demand page (src/server/app/page-route.ts), as `Astro.locals`. */
declare namespace App {
  interface Locals {
    /** The served build's review catalog, the one the search API answers from. */
    catalog: import('./domain/catalog/review-catalog.ts').ReviewCatalog;
    /** The query as sent (`?…`, or empty): the page names the parameters that do not percent-decode. */
    query: string;
    /** Cache-Control for a page that answers 200. */
    cacheControl: string;
    /**
     * For a review's page (/reviews/{id}, src/server/app/review-page-route.ts): the
     * review's position in the catalog, or undefined when no published review has the id asked for.
     */
    reviewPosition?: number | undefined;
  }
}
