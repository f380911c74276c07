#include "fixturewindow.h"

#include <QAccessible>
#include <QAccessibleWidget>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QColor>
#include <QComboBox>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QIcon>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QKeyEvent>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMenuBar>
#include <QMimeData>
#include <QPainter>
#include <QPixmap>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollBar>
#include <QSlider>
#include <QSocketNotifier>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QThread>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include <cstdio>
#include <functional>
#include <unistd.h>

namespace {

const char* kType = "ciuType";

template<typename W> W* tagged(W* widget, const char* name, const char* type)
{
    widget->setObjectName(QString::fromLatin1(name));
    widget->setProperty(kType, QString::fromLatin1(type));
    return widget;
}

QJsonObject rectJson(const QRect& r)
{
    return {{QStringLiteral("x"), r.x()},
            {QStringLiteral("y"), r.y()},
            {QStringLiteral("w"), r.width()},
            {QStringLiteral("h"), r.height()}};
}

QJsonArray modifiersJson(Qt::KeyboardModifiers m)
{
    QJsonArray a;
    if (m & Qt::ControlModifier)
        a << QStringLiteral("ctrl");
    if (m & Qt::ShiftModifier)
        a << QStringLiteral("shift");
    if (m & Qt::AltModifier)
        a << QStringLiteral("alt");
    if (m & Qt::MetaModifier)
        a << QStringLiteral("meta");
    return a;
}

QString buttonName(Qt::MouseButton b)
{
    switch (b) {
    case Qt::LeftButton:
        return QStringLiteral("left");
    case Qt::RightButton:
        return QStringLiteral("right");
    case Qt::MiddleButton:
        return QStringLiteral("middle");
    default:
        return QStringLiteral("other");
    }
}

QString labelOf(QWidget* w)
{
    if (auto* b = qobject_cast<QAbstractButton*>(w))
        return b->text().remove(QLatin1Char('&'));
    if (auto* l = qobject_cast<QLineEdit*>(w))
        return l->text().isEmpty() ? l->placeholderText() : l->text();
    if (auto* c = qobject_cast<QComboBox*>(w))
        return c->currentText();
    if (auto* l = qobject_cast<QLabel*>(w))
        return l->text();
    if (auto* e = qobject_cast<QPlainTextEdit*>(w))
        return e->placeholderText();
    return w->property("ciuLabel").toString();
}

} // namespace

namespace {

// The "drifting" button's accessible: reports its bounds shifted by an offset that changes without any
// accessibility event, as a program does that maps its widgets before the window manager placed its window.
QPoint g_driftOffset;

class DriftingAccessible final : public QAccessibleWidget
{
public:
    explicit DriftingAccessible(QWidget* w)
        : QAccessibleWidget(w, QAccessible::Button)
    {
    }
    QRect rect() const override { return QAccessibleWidget::rect().translated(g_driftOffset); }
    QString text(QAccessible::Text t) const override
    {
        if (t == QAccessible::Name)
            return static_cast<QPushButton*>(widget())->text();
        return QAccessibleWidget::text(t);
    }
};

QAccessibleInterface* driftingFactory(const QString&, QObject* object)
{
    if (object && object->objectName() == QLatin1String("drifting") && qobject_cast<QPushButton*>(object))
        return new DriftingAccessible(static_cast<QWidget*>(object));
    return nullptr;
}

} // namespace

FixtureWindow::FixtureWindow(bool toolBar)
{
    setWindowTitle(QStringLiteral("CIU Fixture"));
    setObjectName(QStringLiteral("fixture"));
    buildMenus();
    if (toolBar)
        buildToolBar();
    auto* tabs = tagged(new QTabWidget(this), "tabs", "");
    tabs->addTab(buildMainPage(), QStringLiteral("Main"));
    tabs->addTab(buildSecondPage(), QStringLiteral("Second"));
    connect(tabs, &QTabWidget::currentChanged, this, [this, tabs](int index) {
        emitEvent(QStringLiteral("tab_changed"),
                  {{QStringLiteral("index"), index}, {QStringLiteral("label"), tabs->tabText(index)}});
    });
    setCentralWidget(tabs);
    statusBar()->showMessage(QStringLiteral("Ready"));
    resize(900, 640);
    QAccessible::installFactory(&driftingFactory);
    qApp->installEventFilter(this);
    // Qt learns of another client's clipboard asynchronously (an XFixes event) and until then answers
    // get-clipboard from what it cached of the previous owner: tests wait for this line before asking.
    connect(QApplication::clipboard(), &QClipboard::changed, this, [this](QClipboard::Mode mode) {
        if (mode == QClipboard::Clipboard)
            emitEvent(QStringLiteral("clipboard_changed"),
                      {{QStringLiteral("owned"), QApplication::clipboard()->ownsClipboard()}});
    });

    m_stdin = new QSocketNotifier(STDIN_FILENO, QSocketNotifier::Read, this);
    connect(m_stdin, &QSocketNotifier::activated, this, [this] {
        char buffer[4096];
        const ssize_t n = ::read(STDIN_FILENO, buffer, sizeof buffer);
        if (n <= 0) {
            m_stdin->setEnabled(false);
            return;
        }
        static QByteArray pending;
        pending.append(buffer, n);
        qsizetype nl;
        while ((nl = pending.indexOf('\n')) >= 0) {
            const QString line = QString::fromUtf8(pending.left(nl)).trimmed();
            pending.remove(0, nl + 1);
            if (!line.isEmpty())
                runCommand(line);
        }
    });
}

void FixtureWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(QStringLiteral("&File"));
    QMenu* edit = menuBar()->addMenu(QStringLiteral("&Edit"));
    QMenu* help = menuBar()->addMenu(QStringLiteral("&Help"));
    auto add = [this](QMenu* menu, const QString& text) {
        QAction* a = menu->addAction(text);
        connect(a, &QAction::triggered, this, [this, text] {
            const QString item = QString(text).remove(QLatin1Char('&'));
            // Visible too: an action run by its shortcut changes the window like one chosen in the menu.
            statusBar()->showMessage(QStringLiteral("%1 triggered").arg(item));
            emitEvent(QStringLiteral("menu_triggered"), {{QStringLiteral("item"), item}});
        });
        return a;
    };
    add(file, QStringLiteral("&New"));
    add(file, QStringLiteral("&Open"));
    // Items with shortcuts (the shortcut discovery and invoke tests).
    add(file, QStringLiteral("&Save"))->setShortcut(QKeySequence(QStringLiteral("Ctrl+S")));
    add(file, QStringLiteral("Save &As\u2026"))->setShortcut(QKeySequence(QStringLiteral("Ctrl+Shift+S")));
    QMenu* recent = file->addMenu(QStringLiteral("&Recent"));
    add(recent, QStringLiteral("alpha.txt"));
    add(recent, QStringLiteral("beta.txt"));
    file->addSeparator();
    add(file, QStringLiteral("&Quit"));
    add(edit, QStringLiteral("&Copy"));
    add(edit, QStringLiteral("&Paste"));
    QAction* about = add(help, QStringLiteral("&About"));
    connect(about, &QAction::triggered, this, &FixtureWindow::openDialog);
    for (QMenu* m : {file, edit, help, recent}) {
        connect(m, &QMenu::aboutToShow, this, [this, m] {
            emitEvent(QStringLiteral("menu_opened"),
                      {{QStringLiteral("menu"), m->title().remove(QLatin1Char('&'))}});
        });
        connect(m, &QMenu::aboutToHide, this, [this, m] {
            emitEvent(QStringLiteral("menu_closed"),
                      {{QStringLiteral("menu"), m->title().remove(QLatin1Char('&'))}});
        });
    }
}

void FixtureWindow::buildToolBar()
{
    // Icon-only buttons as a Qt program shows them: standard freedesktop names through the icon theme,
    // the action's text only in the tool tip (and in the widget list, as the button's label).
    if (QIcon::themeName().isEmpty() || QIcon::fromTheme(QStringLiteral("document-save")).isNull())
        QIcon::setThemeName(QStringLiteral("Adwaita"));
    QToolBar* bar = addToolBar(QStringLiteral("Tools"));
    bar->setObjectName(QStringLiteral("toolbar"));
    bar->setMovable(false);
    bar->setToolButtonStyle(Qt::ToolButtonIconOnly);
    const std::pair<const char*, const char*> tools[] = {{"document-new", "New"},   {"document-open", "Open"},
                                                         {"document-save", "Save"}, {"edit-find", "Find"},
                                                         {"edit-undo", "Undo"},     {"edit-redo", "Redo"}};
    for (const auto& [icon, text] : tools) {
        const QString label = QString::fromLatin1(text);
        QAction* action = bar->addAction(QIcon::fromTheme(QString::fromLatin1(icon)), label);
        const QString name = QStringLiteral("tool_") + label.toLower();
        auto* button = qobject_cast<QToolButton*>(bar->widgetForAction(action));
        if (button) {
            button->setObjectName(name);
            button->setProperty(kType, QStringLiteral("button"));
        }
        connect(action, &QAction::triggered, this, [this, name] {
            emitEvent(QStringLiteral("clicked"), {{QStringLiteral("name"), name}});
        });
    }
    // The program's own icons, as many programs ship them: no theme has them, only the tool tip names them.
    bar->addSeparator();
    const auto drawn = [](const std::function<void(QPainter&)>& draw) {
        QPixmap pixmap(24, 24);
        pixmap.fill(Qt::transparent);
        QPainter p(&pixmap);
        p.setRenderHint(QPainter::Antialiasing);
        draw(p);
        p.end();
        return QIcon(pixmap);
    };
    const std::pair<QIcon, const char*> own[] = {
        {drawn([](QPainter& p) { // a pin: a round head on a needle
             p.setPen(QPen(QColor(0x40, 0x40, 0x40), 2));
             p.drawLine(QPointF(11, 11), QPointF(4, 21));
             p.setPen(Qt::NoPen);
             p.setBrush(QColor(0xc0, 0x20, 0x20));
             p.drawEllipse(QPointF(14, 8), 6, 6);
         }),
         "Pin"},
        {drawn([](QPainter& p) { // a kite: two triangles of two colours
             p.setPen(Qt::NoPen);
             p.setBrush(QColor(0x20, 0x70, 0x30));
             p.drawPolygon(QPolygonF({QPointF(12, 2), QPointF(20, 10), QPointF(12, 22)}));
             p.setBrush(QColor(0xe0, 0xa0, 0x10));
             p.drawPolygon(QPolygonF({QPointF(12, 2), QPointF(4, 10), QPointF(12, 22)}));
         }),
         "Kite"}};
    for (const auto& [icon, text] : own) {
        const QString label = QString::fromLatin1(text);
        QAction* action = bar->addAction(icon, label);
        const QString name = QStringLiteral("own_") + label.toLower();
        if (auto* button = qobject_cast<QToolButton*>(bar->widgetForAction(action))) {
            button->setObjectName(name);
            button->setProperty(kType, QStringLiteral("button"));
        }
        connect(action, &QAction::triggered, this, [this, name] {
            emitEvent(QStringLiteral("clicked"), {{QStringLiteral("name"), name}});
        });
    }
}

QWidget* FixtureWindow::buildMainPage()
{
    auto* page = new QWidget;
    auto* layout = new QHBoxLayout(page);
    auto* left = new QVBoxLayout;
    auto* form = new QFormLayout;

    auto* name = tagged(new QLineEdit, "name", "text_field");
    name->setPlaceholderText(QStringLiteral("Name"));
    connect(name, &QLineEdit::textChanged, this, [this](const QString& t) {
        emitEvent(QStringLiteral("text_changed"),
                  {{QStringLiteral("name"), QStringLiteral("name")}, {QStringLiteral("text"), t}});
    });
    connect(name, &QLineEdit::returnPressed, this, [this] {
        emitEvent(QStringLiteral("return_pressed"), {{QStringLiteral("name"), QStringLiteral("name")}});
    });
    form->addRow(tagged(new QLabel(QStringLiteral("Name:")), "name_label", "static"), name);

    auto* password = tagged(new QLineEdit, "password", "text_field");
    password->setEchoMode(QLineEdit::Password);
    password->setPlaceholderText(QStringLiteral("Password"));
    connect(password, &QLineEdit::textChanged, this, [this](const QString& t) {
        emitEvent(QStringLiteral("text_changed"), {{QStringLiteral("name"), QStringLiteral("password")},
                                                   {QStringLiteral("length"), int(t.size())},
                                                   {QStringLiteral("text"), t}});
    });
    form->addRow(tagged(new QLabel(QStringLiteral("Password:")), "password_label", "static"), password);

    auto* color = tagged(new QComboBox, "color", "dropdown");
    color->addItems({QStringLiteral("Red"), QStringLiteral("Green"), QStringLiteral("Blue")});
    connect(color, &QComboBox::currentTextChanged, this, [this](const QString& t) {
        emitEvent(QStringLiteral("combo_changed"),
                  {{QStringLiteral("name"), QStringLiteral("color")}, {QStringLiteral("text"), t}});
    });
    form->addRow(tagged(new QLabel(QStringLiteral("Color:")), "color_label", "static"), color);

    auto* volume = tagged(new QSlider(Qt::Horizontal), "volume", "slider");
    volume->setRange(0, 100);
    volume->setValue(50);
    volume->setProperty("ciuLabel", QStringLiteral("Volume"));
    connect(volume, &QSlider::valueChanged, this, [this](int v) {
        emitEvent(QStringLiteral("slider_changed"),
                  {{QStringLiteral("name"), QStringLiteral("volume")}, {QStringLiteral("value"), v}});
    });
    form->addRow(tagged(new QLabel(QStringLiteral("Volume:")), "volume_label", "static"), volume);
    left->addLayout(form);

    auto* checks = new QGroupBox(QStringLiteral("Options"));
    auto* checksLayout = new QHBoxLayout(checks);
    for (const auto& [object, text] :
         {std::pair{"subscribe", "Subscribe"}, std::pair{"remember", "Remember me"}}) {
        auto* box = tagged(new QCheckBox(QString::fromLatin1(text)), object, "checkbox");
        const QString n = QString::fromLatin1(object);
        connect(box, &QCheckBox::toggled, this, [this, n](bool on) {
            emitEvent(QStringLiteral("toggled"),
                      {{QStringLiteral("name"), n}, {QStringLiteral("checked"), on}});
        });
        checksLayout->addWidget(box);
    }
    for (const auto& [object, text] : {std::pair{"small", "Small"}, std::pair{"large", "Large"}}) {
        auto* radio = tagged(new QRadioButton(QString::fromLatin1(text)), object, "checkbox");
        const QString n = QString::fromLatin1(object);
        connect(radio, &QRadioButton::toggled, this, [this, n](bool on) {
            emitEvent(QStringLiteral("toggled"),
                      {{QStringLiteral("name"), n}, {QStringLiteral("checked"), on}});
        });
        checksLayout->addWidget(radio);
    }
    left->addWidget(checks);

    auto* notes = tagged(new QPlainTextEdit, "notes", "text_field");
    notes->setPlaceholderText(QStringLiteral("Notes"));
    notes->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(notes, &QPlainTextEdit::textChanged, this, [this, notes] {
        emitEvent(QStringLiteral("text_changed"), {{QStringLiteral("name"), QStringLiteral("notes")},
                                                   {QStringLiteral("text"), notes->toPlainText()}});
    });
    connect(notes, &QWidget::customContextMenuRequested, this, [this, notes](const QPoint& pos) {
        emitEvent(QStringLiteral("context_menu"), {{QStringLiteral("name"), QStringLiteral("notes")}});
        QMenu menu(this);
        menu.setObjectName(QStringLiteral("context"));
        for (const QString& item : {QStringLiteral("Uppercase"), QStringLiteral("Clear")}) {
            QAction* a = menu.addAction(item);
            connect(a, &QAction::triggered, this, [this, item] {
                emitEvent(QStringLiteral("menu_triggered"), {{QStringLiteral("item"), item}});
            });
        }
        menu.exec(notes->mapToGlobal(pos));
    });
    left->addWidget(notes, 1);

    auto* buttons = new QHBoxLayout;
    for (const auto& [object, text] :
         {std::pair{"ok", "OK"}, std::pair{"cancel", "Cancel"}, std::pair{"submit", "Submit"},
          std::pair{"open_dialog", "Open Dialog"}}) {
        auto* button = tagged(new QPushButton(QString::fromLatin1(text)), object, "button");
        const QString n = QString::fromLatin1(object);
        // Like most programs, a button shows its effect: here a line in the status bar.
        connect(button, &QPushButton::clicked, this, [this, n, label = QString::fromLatin1(text)] {
            statusBar()->showMessage(QStringLiteral("%1 clicked").arg(label));
            emitEvent(QStringLiteral("clicked"), {{QStringLiteral("name"), n}});
        });
        buttons->addWidget(button);
        if (n == QLatin1String("submit"))
            button->setToolTip(QStringLiteral("Send the form"));
        if (n == QLatin1String("open_dialog"))
            connect(button, &QPushButton::clicked, this, &FixtureWindow::openDialog);
    }
    left->addLayout(buttons);
    layout->addLayout(left, 3);

    auto* list = tagged(new QListWidget, "items", "scroll_area");
    list->setProperty("ciuLabel", QStringLiteral("Items"));
    for (int i = 1; i <= 60; ++i)
        list->addItem(QStringLiteral("Item %1").arg(i));
    connect(list, &QListWidget::currentTextChanged, this, [this](const QString& t) {
        emitEvent(QStringLiteral("list_selected"),
                  {{QStringLiteral("name"), QStringLiteral("items")}, {QStringLiteral("text"), t}});
    });
    connect(list->verticalScrollBar(), &QScrollBar::valueChanged, this, [this](int v) {
        emitEvent(QStringLiteral("list_scrolled"),
                  {{QStringLiteral("name"), QStringLiteral("items")}, {QStringLiteral("value"), v}});
    });
    layout->addWidget(list, 1);
    return page;
}

QWidget* FixtureWindow::buildSecondPage()
{
    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    auto* button = tagged(new QPushButton(QStringLiteral("Apply")), "apply", "button");
    connect(button, &QPushButton::clicked, this, [this] {
        emitEvent(QStringLiteral("clicked"), {{QStringLiteral("name"), QStringLiteral("apply")}});
    });
    layout->addWidget(button);
    layout->addStretch();
    return page;
}

void FixtureWindow::openDialog()
{
    if (m_dialog)
        return;
    m_dialog = new QDialog(this);
    m_dialog->setObjectName(QStringLiteral("dialog"));
    m_dialog->setWindowTitle(QStringLiteral("Confirm"));
    m_dialog->setModal(true);
    m_dialog->setAttribute(Qt::WA_DeleteOnClose);
    auto* layout = new QVBoxLayout(m_dialog);
    layout->addWidget(tagged(new QLabel(QStringLiteral("Save the changes?")), "dialog_text", "static"));
    auto* box = new QDialogButtonBox;
    auto* yes = tagged(box->addButton(QStringLiteral("Yes"), QDialogButtonBox::AcceptRole), "yes", "button");
    auto* no = tagged(box->addButton(QStringLiteral("No"), QDialogButtonBox::RejectRole), "no", "button");
    Q_UNUSED(yes)
    Q_UNUSED(no)
    layout->addWidget(box);
    connect(box, &QDialogButtonBox::accepted, m_dialog, &QDialog::accept);
    connect(box, &QDialogButtonBox::rejected, m_dialog, &QDialog::reject);
    connect(m_dialog, &QDialog::finished, this, [this](int result) {
        emitEvent(QStringLiteral("dialog_closed"),
                  {{QStringLiteral("result"),
                    result == QDialog::Accepted ? QStringLiteral("yes") : QStringLiteral("no")}});
    });
    m_dialog->resize(320, 140);
    m_dialog->show();
    QTimer::singleShot(300, this, [this] {
        if (m_dialog) {
            emitEvent(QStringLiteral("dialog_opened"),
                      {{QStringLiteral("window"), rectJson(m_dialog->frameGeometry())},
                       {QStringLiteral("client"), rectJson(m_dialog->geometry())}});
            dumpWidgets();
        }
    });
}

void FixtureWindow::openSecondWindow()
{
    if (m_secondWindow)
        return;
    auto* w = new QWidget(nullptr, Qt::Window);
    w->setAttribute(Qt::WA_DeleteOnClose);
    w->setObjectName(QStringLiteral("second_window"));
    w->setWindowTitle(QStringLiteral("CIU Fixture Second"));
    auto* layout = new QVBoxLayout(w);
    layout->addWidget(tagged(new QPushButton(QStringLiteral("Close me")), "close_me", "button"));
    w->setStyleSheet(QStringLiteral("background: #c0d8f0;"));
    w->resize(400, 300);
    w->move(200, 150);
    m_secondWindow = w;
    w->show();
    QTimer::singleShot(300, this, [this] {
        if (m_secondWindow)
            emitEvent(QStringLiteral("window_opened"),
                      {{QStringLiteral("window"), rectJson(m_secondWindow->frameGeometry())},
                       {QStringLiteral("client"), rectJson(m_secondWindow->geometry())}});
    });
}

void FixtureWindow::emitEvent(const QString& event, QJsonObject data)
{
    data.insert(QStringLiteral("event"), event);
    const QByteArray line = QJsonDocument(data).toJson(QJsonDocument::Compact) + '\n';
    std::fwrite(line.constData(), 1, size_t(line.size()), stdout);
    std::fflush(stdout);
}

void FixtureWindow::dumpWidgets(const QString& event)
{
    QJsonArray widgets;
    const QList<QWidget*> all = QApplication::allWidgets();
    for (QWidget* w : all) {
        const QString type = w->property(kType).toString();
        if (type.isEmpty() || !w->isVisible())
            continue;
        const QRect global(w->mapToGlobal(QPoint(0, 0)), w->size());
        widgets.append(QJsonObject{{QStringLiteral("name"), w->objectName()},
                                   {QStringLiteral("type"), type},
                                   {QStringLiteral("label"), labelOf(w)},
                                   {QStringLiteral("rect"), rectJson(global)}});
    }
    // Menu bar titles and tabs are items inside one widget.
    for (QAction* a : menuBar()->actions()) {
        const QRect r = menuBar()->actionGeometry(a);
        widgets.append(QJsonObject{
            {QStringLiteral("name"),
             QString(QStringLiteral("menu_") + a->text().remove(QLatin1Char('&')).toLower())},
            {QStringLiteral("type"), QStringLiteral("menu_item")},
            {QStringLiteral("label"), a->text().remove(QLatin1Char('&'))},
            {QStringLiteral("rect"), rectJson(QRect(menuBar()->mapToGlobal(r.topLeft()), r.size()))}});
    }
    if (auto* tabs = findChild<QTabWidget*>(QStringLiteral("tabs"))) {
        QTabBar* bar = tabs->tabBar();
        for (int i = 0; i < bar->count(); ++i) {
            const QRect r = bar->tabRect(i);
            widgets.append(QJsonObject{
                {QStringLiteral("name"), QString(QStringLiteral("tab_") + bar->tabText(i).toLower())},
                {QStringLiteral("type"), QStringLiteral("tab")},
                {QStringLiteral("label"), bar->tabText(i)},
                {QStringLiteral("rect"), rectJson(QRect(bar->mapToGlobal(r.topLeft()), r.size()))}});
        }
    }
    emitEvent(event, {{QStringLiteral("window"), rectJson(frameGeometry())},
                      {QStringLiteral("client"), rectJson(geometry())},
                      {QStringLiteral("pid"), QCoreApplication::applicationPid()},
                      {QStringLiteral("widgets"), widgets}});
}

void FixtureWindow::runCommand(const QString& line)
{
    const QStringList parts = line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    const QString cmd = parts.value(0);
    if (cmd == QLatin1String("dump")) {
        dumpWidgets();
    } else if (cmd == QLatin1String("move") && parts.size() == 4) {
        if (auto* w = findChild<QWidget*>(parts.at(1))) {
            w->move(parts.at(2).toInt(), parts.at(3).toInt());
            emitEvent(QStringLiteral("moved"),
                      {{QStringLiteral("name"), parts.at(1)},
                       {QStringLiteral("rect"), rectJson(QRect(w->mapToGlobal(QPoint(0, 0)), w->size()))}});
        }
    } else if (cmd == QLatin1String("enable") && parts.size() == 3) {
        if (auto* w = findChild<QWidget*>(parts.at(1))) {
            w->setEnabled(parts.at(2) != QLatin1String("0"));
            emitEvent(QStringLiteral("enabled"),
                      {{QStringLiteral("name"), parts.at(1)}, {QStringLiteral("enabled"), w->isEnabled()}});
        }
    } else if (cmd == QLatin1String("max-length") && parts.size() == 3) {
        // max-length NAME N: the line edit NAME takes at most N characters (what is typed past them is lost).
        if (auto* edit = findChild<QLineEdit*>(parts.at(1))) {
            edit->setMaxLength(parts.at(2).toInt());
            emitEvent(QStringLiteral("max_length"), {{QStringLiteral("name"), parts.at(1)},
                                                     {QStringLiteral("max_length"), edit->maxLength()}});
        }
    } else if (cmd == QLatin1String("add-drifting") && parts.size() == 3) {
        // add-drifting DX DY: a "Drifting" button in the status bar whose accessible bounds are off by DX,DY
        // until settle-drifting, which corrects them without an accessibility event.
        g_driftOffset = QPoint(parts.at(1).toInt(), parts.at(2).toInt());
        auto* button = findChild<QPushButton*>(QStringLiteral("drifting"));
        if (!button) {
            button = new QPushButton(QStringLiteral("Drifting"));
            button->setObjectName(QStringLiteral("drifting"));
            // An interface made before it had its name is the standard one: made again, by the factory.
            if (QAccessibleInterface* standard = QAccessible::queryAccessibleInterface(button))
                QAccessible::deleteAccessibleInterface(QAccessible::uniqueId(standard));
            statusBar()->addPermanentWidget(button);
        }
        QTimer::singleShot(300, this, [this, button] {
            emitEvent(QStringLiteral("drifting_added"),
                      {{QStringLiteral("rect"),
                        rectJson(QRect(button->mapToGlobal(QPoint(0, 0)), button->size()))}});
        });
    } else if (cmd == QLatin1String("settle-drifting")) {
        g_driftOffset = QPoint();
        emitEvent(QStringLiteral("drifting_settled"));
    } else if (cmd == QLatin1String("open-dialog")) {
        openDialog();
    } else if (cmd == QLatin1String("open-window")) {
        openSecondWindow();
    } else if (cmd == QLatin1String("close-window")) {
        if (m_secondWindow)
            m_secondWindow->close();
        emitEvent(QStringLiteral("window_closed"));
    } else if (cmd == QLatin1String("set-clipboard")) {
        QApplication::clipboard()->setText(line.mid(cmd.size() + 1));
        emitEvent(QStringLiteral("clipboard_set"));
    } else if (cmd == QLatin1String("set-clipboard-image") && parts.size() == 4) {
        // set-clipboard-image W H RRGGBB: an image filled with one colour
        QImage image(qBound(1, parts.at(1).toInt(), 4096), qBound(1, parts.at(2).toInt(), 4096),
                     QImage::Format_RGB32);
        image.fill(QColor(QString(QLatin1Char('#') + parts.at(3))));
        QApplication::clipboard()->setImage(image);
        emitEvent(QStringLiteral("clipboard_set"));
    } else if (cmd == QLatin1String("get-clipboard")) {
        const QMimeData* mime = QApplication::clipboard()->mimeData();
        QJsonObject data{{QStringLiteral("text"), QApplication::clipboard()->text()}};
        if (mime && mime->hasImage()) {
            const QImage image = qvariant_cast<QImage>(mime->imageData());
            data.insert(QStringLiteral("image_width"), image.width());
            data.insert(QStringLiteral("image_height"), image.height());
            data.insert(QStringLiteral("image_pixel"), QString::number(image.pixel(0, 0), 16));
        }
        emitEvent(QStringLiteral("clipboard"), data);
    } else if (cmd == QLatin1String("focus") && parts.size() == 2) {
        if (auto* w = findChild<QWidget*>(parts.at(1))) {
            activateWindow();
            w->setFocus();
            emitEvent(QStringLiteral("focused"), {{QStringLiteral("name"), parts.at(1)}});
        }
    } else if (cmd == QLatin1String("sync")) {
        // A barrier: every window-system event that reached us is handled, every repaint it caused is
        // drawn and has reached the X server. A test grabbing the screen after "synced" sees it.
        QGuiApplication::sync();
        QCoreApplication::sendPostedEvents();
        QGuiApplication::sync();
        emitEvent(QStringLiteral("synced"));
    } else if (cmd == QLatin1String("block") && parts.size() == 2) {
        // block MS: a busy main loop (nothing is painted or answered) for MS milliseconds.
        emitEvent(QStringLiteral("blocking"));
        QThread::msleep(qBound(0UL, parts.at(1).toULong(), 60'000UL));
        emitEvent(QStringLiteral("unblocked"));
    } else if (cmd == QLatin1String("quit")) {
        QApplication::quit();
    } else {
        emitEvent(QStringLiteral("error"),
                  {{QStringLiteral("message"), QString(QStringLiteral("unknown command: ") + line)}});
    }
}

void FixtureWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    if (!m_readySent) {
        m_readySent = true;
        // The window manager places and decorates the window asynchronously; report once it settled.
        QTimer::singleShot(500, this, [this] { dumpWidgets(QStringLiteral("ready")); });
    }
}

bool FixtureWindow::eventFilter(QObject* watched, QEvent* event)
{
    // Input from the window system reaches a QWindow exactly once before Qt routes it to widgets.
    if (!watched->isWindowType())
        return false;
    switch (event->type()) {
    case QEvent::KeyPress:
    case QEvent::KeyRelease: {
        auto* key = static_cast<QKeyEvent*>(event);
        QWidget* focus = QApplication::focusWidget();
        emitEvent(event->type() == QEvent::KeyPress ? QStringLiteral("key_press")
                                                    : QStringLiteral("key_release"),
                  {{QStringLiteral("key"), QKeySequence(key->key()).toString()},
                   {QStringLiteral("qt_key"), key->key()},
                   {QStringLiteral("text"), key->text()},
                   {QStringLiteral("native_keysym"), qint64(key->nativeVirtualKey())},
                   {QStringLiteral("modifiers"), modifiersJson(key->modifiers())},
                   {QStringLiteral("autorepeat"), key->isAutoRepeat()},
                   {QStringLiteral("widget"), focus ? focus->objectName() : QString()}});
        break;
    }
    case QEvent::MouseButtonPress:
    case QEvent::MouseButtonRelease:
    case QEvent::MouseButtonDblClick: {
        auto* mouse = static_cast<QMouseEvent*>(event);
        const QString kind = event->type() == QEvent::MouseButtonPress ? QStringLiteral("mouse_press")
                             : event->type() == QEvent::MouseButtonRelease
                                 ? QStringLiteral("mouse_release")
                                 : QStringLiteral("mouse_double_click");
        const QPoint global = mouse->globalPosition().toPoint();
        QWidget* under = QApplication::widgetAt(global);
        emitEvent(kind, {{QStringLiteral("button"), buttonName(mouse->button())},
                         {QStringLiteral("x"), global.x()},
                         {QStringLiteral("y"), global.y()},
                         {QStringLiteral("modifiers"), modifiersJson(mouse->modifiers())},
                         {QStringLiteral("widget"), under ? under->objectName() : QString()}});
        break;
    }
    case QEvent::Wheel: {
        auto* wheel = static_cast<QWheelEvent*>(event);
        const QPoint global = wheel->globalPosition().toPoint();
        QWidget* under = QApplication::widgetAt(global);
        emitEvent(QStringLiteral("wheel"),
                  {{QStringLiteral("dx"), wheel->angleDelta().x()},
                   {QStringLiteral("dy"), wheel->angleDelta().y()},
                   {QStringLiteral("x"), global.x()},
                   {QStringLiteral("y"), global.y()},
                   {QStringLiteral("modifiers"), modifiersJson(wheel->modifiers())},
                   {QStringLiteral("widget"), under ? under->objectName() : QString()}});
        break;
    }
    default:
        break;
    }
    return false;
}
