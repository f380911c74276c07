#include "ui/mainwindow.h"

#include <QLabel>
#include <QStatusBar>

namespace ciu::ui {

MainWindow::MainWindow(MainWindowOptions options, QWidget* parent)
    : QMainWindow(parent)
    , m_options(std::move(options))
{
    setWindowTitle(tr("CIU Agent"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/ciu-agent.svg")));
    auto* label = new QLabel(tr("Target display: %1").arg(m_options.display.isEmpty() ? qEnvironmentVariable("DISPLAY")
                                                                                     : m_options.display),
                             this);
    label->setAlignment(Qt::AlignCenter);
    setCentralWidget(label);
    statusBar()->showMessage(tr("Ready"));
    resize(1100, 720);
}

MainWindow::~MainWindow() = default;

}  // namespace ciu::ui
