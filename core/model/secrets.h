#pragma once

// Secrets (API keys, tokens, passwords) never leave the process: everything written to a session, a log or a
// report goes through scrubSecrets() first.

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace ciu {

// Replaces strings that look like API keys (sk-ant-..., sk-..., "Bearer ...") and every known secret value
// (see knownSecrets()) with "[redacted]".
QString scrubSecrets(const QString& text);
QByteArray scrubSecrets(const QByteArray& utf8);
bool looksLikeSecret(const QString& text);

// Secret values redacted wherever they appear, whatever their form: the values (8+ characters) of the
// environment's key variables (ANTHROPIC_API_KEY, OPENAI_API_KEY and any *_API_KEY, *_KEY, *_TOKEN, *_SECRET,
// *_PASSWORD) as read by the last refreshEnvironmentSecrets(), plus registered ones (e.g. a keychain key).
// Thread-safe.
QStringList knownSecrets();
void refreshEnvironmentSecrets();
void registerSecret(const QString& value);

} // namespace ciu
