#pragma once

// Secrets a task types (a password, a PIN): masked in every record, message, plan and file the run writes.
// A text becomes known as a secret when the safety guard marks an action's text secret (typed into a
// password or credential field), or, for a task script, from the start: `type "2468" into PIN` names a
// credential field, so "2468" is masked before the field is even seen (the task's own text included).

#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>

namespace ciu {

// The texts a task script types into a field named like a credential. Empty for a task that is not a script.
QStringList secretsOfTask(const QString& task);

class SecretMask
{
public:
    SecretMask() = default;
    explicit SecretMask(QStringList secrets);

    void clear() { m_secrets.clear(); }
    // Shorter secrets are not masked in free text: one or two characters would mask parts of every id and
    // word in the records, and tell little.
    static constexpr int kMinLength = 3;
    // Ignored when shorter than kMinLength or already known.
    void add(const QString& secret);
    bool isEmpty() const { return m_secrets.isEmpty(); }
    const QStringList& secrets() const { return m_secrets; }

    // Every occurrence of a known secret replaced by Action::maskedText().
    QString masked(QString text) const;
    // The same in every string of the value, keys included, recursively.
    QJsonValue masked(const QJsonValue& value) const;
    QJsonObject masked(const QJsonObject& object) const;

private:
    QStringList m_secrets; // longest first: a secret that holds another is masked whole
};

// The task with the secrets its script types masked: what is logged and recorded of it.
QString maskedTask(const QString& task);

} // namespace ciu
