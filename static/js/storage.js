/* Haferl: this device's storage, under names of its own (never a cookie). The theme's name
 * is written out again in static/theme.js, a classic script that imports nothing. */

export const THEME_KEY = "haferl.theme";
export const RECENT_KEY = "haferl.recent";
export const TYPED_KEY = "haferl.new-table";
/** The queue of hands entered at the table `key` and not yet taken by the server. */
export const queueKey = (key) => "haferl.queue." + key;
