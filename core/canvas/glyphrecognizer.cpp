#include "core/canvas/glyphrecognizer.h"

#include "core/canvas/zoneassembler_p.h"

#include <algorithm>
#include <opencv2/imgproc.hpp>

namespace ciu::canvas::detail {

using assembly::contains;

bool keyShaped(const seg::Segmentation& s, int box)
{
    const cv::Rect& r = s.boxes[size_t(box)].rect;
    if (r.height < 16 || r.height > 44 || r.width > 120 || r.width < 0.8 * r.height ||
        r.width > 3.2 * r.height)
        return false;
    for (size_t i = 0; i < s.boxes.size(); ++i) {
        // Glyph-sized boxes inside are letters ("O", "D") found as boxes.
        if (int(i) != box && contains(r, s.boxes[i].rect) && s.boxes[i].rect.height > 16 &&
            s.boxes[i].rect.area() < r.area())
            return false;
    }
    return true;
}

QString symbolFromInk(const cv::Mat& ink)
{
    cv::Mat labels, stats, centroids;
    const int n = cv::connectedComponentsWithStats(ink, labels, stats, centroids, 8, CV_32S);
    std::vector<cv::Rect> parts;
    for (int i = 1; i < n; ++i)
        parts.emplace_back(stats.at<int>(i, cv::CC_STAT_LEFT), stats.at<int>(i, cv::CC_STAT_TOP),
                           stats.at<int>(i, cv::CC_STAT_WIDTH), stats.at<int>(i, cv::CC_STAT_HEIGHT));
    std::sort(parts.begin(), parts.end(), [](const cv::Rect& a, const cv::Rect& b) { return a.y < b.y; });
    auto bar = [](const cv::Rect& r) { return r.height <= 3 && r.width >= 4 && r.width >= 3 * r.height; };
    auto dot = [](const cv::Rect& r) { return r.width <= 3 && r.height <= 3; };
    auto overlapX = [](const cv::Rect& a, const cv::Rect& b) {
        return std::min(a.x + a.width, b.x + b.width) - std::max(a.x, b.x);
    };
    if (parts.size() == 1) {
        const cv::Rect& r = parts.front();
        if (bar(r))
            return QStringLiteral("-");
        if (dot(r))
            return QStringLiteral(".");
        // A plus: a full middle row and a full middle column, little else.
        if (r.width >= 7 && r.height >= 7 && std::abs(r.width - r.height) <= 2 &&
            cv::countNonZero(ink(r)) <= 0.5 * r.area()) {
            const int row = cv::countNonZero(ink(cv::Rect(r.x, r.y + r.height / 2, r.width, 1)));
            const int column = cv::countNonZero(ink(cv::Rect(r.x + r.width / 2, r.y, 1, r.height)));
            const int corners = cv::countNonZero(ink(cv::Rect(r.x, r.y, 2, 2))) +
                                cv::countNonZero(ink(cv::Rect(r.x + r.width - 2, r.y + r.height - 2, 2, 2)));
            if (row >= r.width - 1 && column >= r.height - 1 && corners == 0)
                return QStringLiteral("+");
        }
        // A parenthesis: a tall thin arc, its ends on the side away from its middle.
        if (r.height >= 8 && r.width >= 3 && r.height >= 2.5 * r.width) {
            auto meanX = [&](int y0, int y1) {
                double sum = 0;
                int count = 0;
                for (int y = y0; y < y1; ++y) {
                    for (int x = r.x; x < r.x + r.width; ++x) {
                        if (ink.at<uchar>(y, x)) {
                            sum += x;
                            ++count;
                        }
                    }
                }
                return count ? sum / count : -1.0;
            };
            const int band = std::max(1, r.height / 6);
            const double top = meanX(r.y, r.y + band);
            const double middle = meanX(r.y + r.height / 2 - band / 2, r.y + r.height / 2 + band / 2 + 1);
            const double bottom = meanX(r.y + r.height - band, r.y + r.height);
            const int topRow = cv::countNonZero(ink(cv::Rect(r.x, r.y, r.width, 1)));
            if (top >= 0 && middle >= 0 && bottom >= 0 && topRow < r.width) {
                if (top - middle >= 1.5 && bottom - middle >= 1.5)
                    return QStringLiteral("(");
                if (middle - top >= 1.5 && middle - bottom >= 1.5)
                    return QStringLiteral(")");
            }
        }
        // An asterisk: a small star raised above the middle of the key (a letter "x" sits lower).
        if (r.width >= 4 && r.width <= 9 && r.height >= 4 && r.height <= 9 &&
            std::abs(r.width - r.height) <= 2 && r.y + r.height / 2 < ink.rows / 2 - 1 &&
            r.y + r.height <= ink.rows / 2 + 1)
            return QStringLiteral("*");
        return {};
    }
    if (parts.size() == 2 && bar(parts[0]) && bar(parts[1]) &&
        overlapX(parts[0], parts[1]) >= 0.7 * std::max(parts[0].width, parts[1].width) &&
        parts[1].y - (parts[0].y + parts[0].height) <= 6)
        return QStringLiteral("=");
    if (parts.size() == 3 && dot(parts[0]) && bar(parts[1]) && dot(parts[2]) &&
        overlapX(parts[0], parts[1]) > 0 && overlapX(parts[2], parts[1]) > 0)
        return QString(QChar(0x00F7)); // ÷
    return {};
}

} // namespace ciu::canvas::detail
