import type { MetadataRoute } from "next";

export default function manifest(): MetadataRoute.Manifest {
  return {
    name: "Toolroom",
    short_name: "Toolroom",
    description: "A playground for LLM agents and their tools.",
    start_url: "/",
    display: "standalone",
    background_color: "#ffffff",
    theme_color: "#3b5bdb",
    icons: [
      { src: "/icon.svg", type: "image/svg+xml", sizes: "any" },
      { src: "/icon-192.png", type: "image/png", sizes: "192x192" },
      { src: "/icon-512.png", type: "image/png", sizes: "512x512" },
    ],
  };
}
