import type { EventId, EventStore, StreamId } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/**
 * Lets a client that lost its SSE stream mid-call resume it with Last-Event-ID (streamable HTTP
 * resumability). One per session, in memory, keeping only the newest `limit` events: a resume
 * after that many messages restarts the stream rather than growing without bound.
 */
export class SessionEventStore implements EventStore {
  private readonly events: { id: EventId; streamId: StreamId; message: JSONRPCMessage }[] = [];
  private counter = 0;

  constructor(private readonly limit = 1000) {}

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const id = `${streamId}_${++this.counter}`;
    this.events.push({ id, streamId, message });
    if (this.events.length > this.limit) this.events.splice(0, this.events.length - this.limit);
    return id;
  }

  async getStreamIdForEventId(eventId: EventId): Promise<StreamId | undefined> {
    return this.events.find((e) => e.id === eventId)?.streamId;
  }

  async replayEventsAfter(lastEventId: EventId, { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> }): Promise<StreamId> {
    const index = this.events.findIndex((e) => e.id === lastEventId);
    const streamId = this.events[index]?.streamId;
    if (streamId === undefined) throw new Error(`Unknown or expired event id ${lastEventId}`);
    for (const event of this.events.slice(index + 1)) if (event.streamId === streamId) await send(event.id, event.message);
    return streamId;
  }
}
