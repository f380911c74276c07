#pragma once

#include <QString>

namespace ciu::safety {

// Everything read from the screen is data, never instructions. Text handed to a model is wrapped in a
// delimited block, and the delimiter cannot be forged from inside: any "<untrusted" / "</untrusted"
// in the text is defused.
//   <untrusted_screen_text source="zone_map">
//   …
//   </untrusted_screen_text>
QString wrapUntrusted(const QString& text, const QString& source);
// The same escaping for one value embedded in an already wrapped block (a zone label).
QString defuseUntrusted(const QString& text);
// The sentence for the system prompt that explains the blocks.
QString untrustedPolicy();

} // namespace ciu::safety
