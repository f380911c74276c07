#pragma once

#include "core/model/action.h"

#include <QDialog>
#include <QImage>

class QLabel;
class QPushButton;

namespace ciu::ui {

// Asks the human about one high-risk action: shows the crop of the target, the exact action and the
// reason it is considered risky. Deny is the default button; closing or Escape denies. Non-blocking:
// open() it and listen to answered().
class ConfirmationDialog final : public QDialog
{
    Q_OBJECT
public:
    ConfirmationDialog(quint64 requestId, const Action& action, const QString& reason,
                       const QImage& targetCrop, QWidget* parent = nullptr);

    quint64 requestId() const { return m_requestId; }
    QPushButton* allowButton() const { return m_allow; }
    QPushButton* denyButton() const { return m_deny; }
    QString actionText() const;

    // The crop shown for an action: its target (zone bounds or point) with a margin, from a frame.
    static QImage cropFor(const QImage& frame, QPoint frameOrigin, const QRect& targetRoot,
                          int marginPx = 48);

signals:
    void answered(quint64 requestId, bool allowed);

protected:
    void done(int result) override;

private:
    quint64 m_requestId;
    QLabel* m_actionLabel;
    QPushButton* m_allow;
    QPushButton* m_deny;
    bool m_answered = false;
};

} // namespace ciu::ui
