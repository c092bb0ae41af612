// @ts-check
// The resources the conformance suite reads and subscribes to by URI.
import { defineResource, defineResourceTemplate } from "toolroom-plugin-kit";
import { RED_PIXEL_PNG } from "./media.js";

export const staticText = defineResource({
  uri: "test://static-text",
  name: "static-text",
  description: "A fixed text resource (conformance: resources-read-text).",
  mimeType: "text/plain",
  read: () => "This is the content of the static text resource.",
});

export const staticBinary = defineResource({
  uri: "test://static-binary",
  name: "static-binary",
  description: "A 1×1 red PNG (conformance: resources-read-binary).",
  mimeType: "image/png",
  read: () => ({ blob: RED_PIXEL_PNG }),
});

export const watchedResource = defineResource({
  uri: "test://watched-resource",
  name: "watched-resource",
  description: "A resource to subscribe to (conformance: resources-subscribe, resources-unsubscribe).",
  mimeType: "text/plain",
  read: () => `Watched resource, read at ${new Date().toISOString()}.`,
});

export const templateData = defineResourceTemplate({
  uriTemplate: "test://template/{id}/data",
  name: "template-data",
  description: "Data for one id (conformance: resources-templates-read).",
  mimeType: "application/json",
  complete: { id: (value) => ["123", "456", "789"].filter((id) => id.startsWith(value)) },
  read: (_uri, { id }) => JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
});
