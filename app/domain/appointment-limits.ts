/**
 * The bounds of what people type about a consultation (the provider's), in a module of their
 * own: the forms' client-side validation imports them without the time-zone code.
 */
/** The patient's notes. */
export const NOTES_MAX_LENGTH = 1000
/** A cancellation reason. */
export const REASON_MAX_LENGTH = 500

/** The professional's consultation notes, private or shared. */
export const CONSULTATION_NOTES_MAX_LENGTH = 5000
