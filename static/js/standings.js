/* Haferl: the tournament's standings on the projector: the live page alone. */
import * as live from "./live.js";

live.start();
