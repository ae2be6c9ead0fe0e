/**
 * Where the back office's forms post a preview of unsaved content, and the browser tab (one, reused) it opens in
 * (decision 074). A module of its own, importing nothing: the forms' buttons load it, and must not bring the content
 * registry (and zod with it) into the back office's scripts (decision 054).
 */
export const PREVIEW_PATH = "/preview";
export const PREVIEW_TARGET = "site-preview";
