#pragma once

#include <QMainWindow>

namespace ciu::ui {

struct MainWindowOptions
{
    QString display;   // target display, empty: $DISPLAY
    QString platform;  // backend override
};

class MainWindow final : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(MainWindowOptions options, QWidget* parent = nullptr);
    ~MainWindow() override;

private:
    MainWindowOptions m_options;
};

}  // namespace ciu::ui
