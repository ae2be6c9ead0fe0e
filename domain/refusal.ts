/**
 * What anyone refused a page, a call or an action reads (spec 2): the one text for every door (the REST API, page
 * guards, services and the error panel). Alone in its file: the error panel is in the first script every page loads.
 */
export const NO_PERMISSION = "You don't have any permission";
