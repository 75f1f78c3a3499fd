/**
 * `<reviews-widget>`, defined by `<script src="{SITE_URL}/widget.js" async></script>`
 * on any website (docs/embed.md). It shows the rating, the number of reviews and a
 * few reviews, read from `/api/widget` on the script's own origin with the element's
 * attributes as parameters, in a shadow root: the page's CSS does not reach in (the
 * root resets what it would inherit) and the widget's does not reach out. Its styles
 * are a constructed stylesheet and its content is made with DOM calls, so a page
 * whose Content-Security-Policy allows only this origin's script and connections
 * needs nothing inline for it. No cookie is sent, no referrer, nothing is stored.
 *
 * This file runs in the reader's browser as it is, once its types are stripped
 * (src/build/widget-script.ts): a script, not a module, that declares nothing global.
 */
(() => {
  const TAG = 'reviews-widget';
  /** The parameters of /api/widget, read from the attributes of the same names. */
  const PARAMETERS = ['limit', 'sort', 'rating', 'min_rating', 'since', 'until', 'query', 'mentions_technician', 'mentions_service'];

  interface WidgetReview {
    id: string;
    url: string;
    rating: number;
    date: string;
    title: string | null;
    excerpt: string;
    author: string;
    has_response: boolean;
  }
  interface WidgetDocument {
    business: { name: string; url: string };
    language: string;
    rating_value: number | null;
    review_count: number;
    total: number;
    reviews_url: string;
    reviews: WidgetReview[];
  }
  interface ApiError {
    message?: string;
    issues?: { message: string }[];
  }

  if (customElements.get(TAG)) return;
  const script = document.currentScript as HTMLScriptElement | null;
  const endpoint = new URL('api/widget', script?.src || location.href);

  const CSS = `
:host{display:block;contain:content}
:host([hidden]){display:none}
.w{all:initial;display:block;box-sizing:border-box;max-width:100%;padding:16px;border:1px solid #d0d7de;border-radius:8px;background:#fff;color:#1f2328;font:400 15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;text-align:left;overflow-wrap:anywhere}
.w *{box-sizing:border-box;margin:0;padding:0;font:inherit;color:inherit;letter-spacing:normal;text-transform:none;text-decoration:none;background:none;border:0}
.w a{color:#0b57d0;text-decoration:underline}
.w a:focus-visible{outline:2px solid #0b57d0;outline-offset:2px}
.head{display:flex;flex-wrap:wrap;align-items:center;gap:4px 10px}
.big{font-size:1.6em;font-weight:700;line-height:1.2}
.stars{position:relative;display:inline-block;color:#c4cad1;white-space:nowrap;line-height:1}
.stars>span{position:absolute;inset:0 auto 0 0;overflow:hidden;color:#b26b00}
.w ul{list-style:none;margin-top:12px}
.w li{padding:12px 0;border-top:1px solid #e4e8ec}
.w li .stars{font-size:.9em}
.t{display:block;margin-top:2px;font-weight:600}
.x{margin-top:4px}
.m{margin-top:4px;color:#57606a;font-size:.87em}
.f{margin-top:8px;font-size:.93em}
.msg{color:#57606a}
`;
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(CSS);

  function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function link(href: string, text: string, className = ''): HTMLAnchorElement {
    const a = element('a', className, text);
    a.href = href;
    a.target = '_blank';
    a.rel = 'noopener';
    return a;
  }

  /** Five stars, the gold part as wide as the rating (a partial star for 4.2), and the rating in words for screen readers. */
  function stars(rating: number | null, label: string): HTMLSpanElement {
    const outer = element('span', 'stars', '★★★★★');
    outer.setAttribute('role', 'img');
    outer.setAttribute('aria-label', label);
    const gold = element('span', '', '★★★★★');
    gold.style.width = `${Math.max(0, Math.min(5, rating ?? 0)) * 20}%`;
    outer.append(gold);
    return outer;
  }

  class ReviewsWidget extends HTMLElement {
    static get observedAttributes(): string[] {
      return PARAMETERS;
    }

    readonly #root: ShadowRoot;
    readonly #box: HTMLDivElement;
    #ticket = 0;
    #scheduled = false;

    constructor() {
      super();
      this.#root = this.attachShadow({ mode: 'open' });
      this.#root.adoptedStyleSheets = [sheet];
      this.#box = element('div', 'w');
      this.#root.append(this.#box);
    }

    connectedCallback(): void {
      this.#schedule();
    }

    attributeChangedCallback(): void {
      if (this.isConnected) this.#schedule();
    }

    /** One request for all the attributes set in one go. */
    #schedule(): void {
      if (this.#scheduled) return;
      this.#scheduled = true;
      queueMicrotask(() => {
        this.#scheduled = false;
        void this.#load();
      });
    }

    #show(state: string, ...nodes: Node[]): void {
      this.#box.replaceChildren(...nodes);
      this.dataset.state = state;
    }

    async #load(): Promise<void> {
      const ticket = ++this.#ticket;
      const url = new URL(endpoint);
      for (const name of PARAMETERS) {
        const value = this.getAttribute(name);
        if (value !== null) url.searchParams.set(name, value);
      }
      if (!this.#box.firstChild) this.#show('loading', element('p', 'msg', 'Loading reviews…'));
      let status = 0;
      let body: unknown;
      try {
        const response = await fetch(url, { credentials: 'omit', referrerPolicy: 'no-referrer' });
        status = response.status;
        body = await response.json();
      } catch {
        body = undefined;
      }
      if (ticket !== this.#ticket) return;
      if (status === 200) return this.#render(body as WidgetDocument);
      const error = (body ?? {}) as ApiError;
      const why = error.issues?.map((issue) => issue.message).join(' ') || error.message;
      const text = why ? `These reviews cannot be shown. ${why}` : 'The reviews could not be loaded. Please try again later.';
      this.#show('error', element('p', 'msg', text));
    }

    #render(doc: WidgetDocument): void {
      this.#box.lang = doc.language;
      const numbers = new Intl.NumberFormat(doc.language);
      const dates = new Intl.DateTimeFormat(doc.language, { dateStyle: 'medium', timeZone: 'UTC' });
      const count = `${numbers.format(doc.review_count)} ${doc.review_count === 1 ? 'review' : 'reviews'}`;

      const head = element('p', 'head');
      if (doc.rating_value === null) head.append(element('span', '', `${doc.business.name}: no reviews yet`));
      else {
        const rating = doc.rating_value.toFixed(1);
        head.append(element('span', 'big', rating), stars(doc.rating_value, `Rated ${rating} out of 5`), link(doc.reviews_url, `${count} of ${doc.business.name}`));
      }

      const list = element('ul', '');
      list.setAttribute('aria-label', `Reviews of ${doc.business.name}`);
      for (const review of doc.reviews) {
        const item = element('li', '');
        item.append(stars(review.rating, `${review.rating} out of 5 stars`));
        item.append(link(review.url, review.title ?? 'Read the review', 't'));
        item.append(element('p', 'x', review.excerpt));
        const meta = element('p', 'm', `${review.author}, `);
        const time = element('time', '', dates.format(new Date(`${review.date}T00:00:00Z`)));
        time.dateTime = review.date;
        meta.append(time);
        if (review.has_response) meta.append(' · the business replied');
        item.append(meta);
        list.append(item);
      }
      const nodes: Node[] = [head];
      if (doc.reviews.length) nodes.push(list);
      else if (doc.rating_value !== null) nodes.push(element('p', 'msg', 'No review matches these filters yet.'));
      const footer = element('p', 'f');
      footer.append(link(doc.reviews_url, doc.total === doc.reviews.length ? 'See them on our reviews site' : `See all ${numbers.format(doc.total)} matching reviews`));
      if (doc.reviews.length) nodes.push(footer);
      this.#show('ready', ...nodes);
    }
  }

  customElements.define(TAG, ReviewsWidget);
})();
