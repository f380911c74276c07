#include "ui/confirmationdialog.h"

#include "ui/uilog.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QPixmap>
#include <QPushButton>
#include <QStyle>
#include <QVBoxLayout>

namespace ciu::ui {

ConfirmationDialog::ConfirmationDialog(quint64 requestId, const Action& action, const QString& reason,
                                       const QImage& targetCrop, QWidget* parent)
    : QDialog(parent)
    , m_requestId(requestId)
    , m_actionLabel(new QLabel(this))
    , m_allow(new QPushButton(tr("&Allow once"), this))
    , m_deny(new QPushButton(tr("&Deny"), this))
{
    setWindowTitle(tr("Confirm a high-risk action"));
    setModal(true);
    setAttribute(Qt::WA_DeleteOnClose);

    auto* heading =
        new QLabel(tr("<b>The agent wants to perform an action that needs your confirmation.</b>"), this);
    heading->setWordWrap(true);
    auto* icon = new QLabel(this);
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(32, 32));

    auto* crop = new QLabel(this);
    crop->setAlignment(Qt::AlignCenter);
    crop->setFrameShape(QFrame::StyledPanel);
    if (targetCrop.isNull()) {
        crop->setText(tr("(no image of the target)"));
    } else {
        QPixmap pixmap = QPixmap::fromImage(targetCrop);
        if (pixmap.width() > 480 || pixmap.height() > 320)
            pixmap = pixmap.scaled(480, 320, Qt::KeepAspectRatio, Qt::SmoothTransformation);
        crop->setPixmap(pixmap);
    }
    crop->setAccessibleName(tr("Image of the target"));

    m_actionLabel->setText(action.describe());
    m_actionLabel->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_actionLabel->setWordWrap(true);
    QFont mono(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::Monospace);
    m_actionLabel->setFont(mono);
    auto* reasonLabel = new QLabel(tr("Why: %1").arg(reason.toHtmlEscaped()), this);
    reasonLabel->setWordWrap(true);

    auto* buttons = new QDialogButtonBox(this);
    buttons->addButton(m_deny, QDialogButtonBox::RejectRole);
    buttons->addButton(m_allow, QDialogButtonBox::AcceptRole);
    m_allow->setAutoDefault(false);
    m_deny->setAutoDefault(true);
    m_deny->setDefault(true);
    m_deny->setFocus();

    auto* top = new QHBoxLayout;
    top->addWidget(icon, 0, Qt::AlignTop);
    top->addWidget(heading, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(crop);
    layout->addWidget(m_actionLabel);
    layout->addWidget(reasonLabel);
    layout->addWidget(buttons);

    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
}

QString ConfirmationDialog::actionText() const
{
    return m_actionLabel->text();
}

void ConfirmationDialog::done(int result)
{
    if (!m_answered) {
        m_answered = true;
        qCInfo(lcUi) << "confirmation" << m_requestId << (result == QDialog::Accepted ? "allowed" : "denied");
        emit answered(m_requestId, result == QDialog::Accepted);
    }
    QDialog::done(result);
}

QImage ConfirmationDialog::cropFor(const QImage& frame, QPoint frameOrigin, const QRect& targetRoot,
                                   int marginPx)
{
    if (frame.isNull() || targetRoot.isNull())
        return {};
    const QRect wanted =
        targetRoot.adjusted(-marginPx, -marginPx, marginPx, marginPx).translated(-frameOrigin);
    const QRect r = wanted.intersected(frame.rect());
    return r.isEmpty() ? QImage() : frame.copy(r);
}

} // namespace ciu::ui
