import ICAL from 'ical.js';

/** One event of a feed as a real iCalendar parser (ical.js) reads it. */
export interface FeedEvent {
  uid: string;
  summary: string;
  url: string | null;
  start: Date;
  end: Date;
  /** The TZID its start is given in. */
  zone: string | null;
  stamp: Date | null;
  lastModified: Date | null;
}

/** Parses an iCalendar feed (RFC 5545) with ical.js, its VTIMEZONEs registered so zoned times resolve. */
export function parseFeed(text: string): { name: string | null; events: FeedEvent[] } {
  const calendar = new ICAL.Component(ICAL.parse(text));
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  const time = (v: ICAL.Component, name: string) => {
    const value = v.getFirstPropertyValue(name);
    return value instanceof ICAL.Time ? value.toJSDate() : null;
  };
  const events = calendar.getAllSubcomponents('vevent').map((v) => {
    const event = new ICAL.Event(v);
    const url = v.getFirstPropertyValue('url');
    const tzid = v.getFirstProperty('dtstart')?.getParameter('tzid');
    return {
      uid: event.uid,
      summary: event.summary,
      url: typeof url === 'string' ? url : null,
      start: event.startDate.toJSDate(),
      end: event.endDate.toJSDate(),
      zone: typeof tzid === 'string' ? tzid : null,
      stamp: time(v, 'dtstamp'),
      lastModified: time(v, 'last-modified'),
    };
  });
  const name = calendar.getFirstPropertyValue('x-wr-calname');
  return { name: typeof name === 'string' ? name : null, events };
}
