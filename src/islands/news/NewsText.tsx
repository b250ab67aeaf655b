import { Fragment } from 'react';
import { isExternalAddress } from '../../lib/domain/address.ts';
import { linkifyText, newsParagraphs } from '../../lib/domain/news.ts';

/**
 * News content as text: paragraphs at blank lines, line breaks kept, http(s) addresses as links.
 * Never HTML: whatever the text holds is shown as characters.
 */
export function NewsText({ content }: { content: string }) {
  return (
    <div className="flex flex-col gap-3 leading-relaxed">
      {newsParagraphs(content).map((paragraph, i) => (
        <p key={i} className="whitespace-pre-line wrap-anywhere">
          {linkifyText(paragraph).map((part, j) =>
            part.kind === 'link' ? (
              <a key={j} href={part.href} rel="noopener noreferrer nofollow" target="_blank">
                {part.text}
              </a>
            ) : (
              <Fragment key={j}>{part.text}</Fragment>
            ),
          )}
        </p>
      ))}
    </div>
  );
}

/** Attributes of a link to a news item's own address: other sites open in a new tab. */
export const newsLinkProps = (href: string) =>
  isExternalAddress(href) ? { href, rel: 'noopener noreferrer', target: '_blank' as const } : { href };
