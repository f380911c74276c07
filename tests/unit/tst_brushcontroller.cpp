#include <QTest>
class Testbrushcontroller : public QObject
{
    Q_OBJECT
};
QTEST_GUILESS_MAIN(Testbrushcontroller)
#include "tst_brushcontroller.moc"
