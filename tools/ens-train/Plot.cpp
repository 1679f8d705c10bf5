//===- Plot.cpp - ens-train's SVG plot ------------------------------------===//
//
// Hand-written SVG: a frame, ticks and labels per panel, then polylines,
// polygons and circles in data coordinates mapped to pixels.
//
//===----------------------------------------------------------------------===//

#include "Plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <sstream>

using namespace ens_train;

namespace {
/// The width of a panel with its margins, and the document's height.
constexpr double kPanelWidth = 500, kHeight = 430;
/// "+-" in UTF-8.
constexpr const char *kPlusMinus = "\xc2\xb1";

/// `value` in the shortest "%g" form.
std::string num(double value, int precision = 4) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.*g", precision, value);
  return buffer;
}

/// A pixel coordinate.
std::string px(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.1f", value);
  return buffer;
}

std::string escape(const std::string &text) {
  std::string out;
  for (char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

/// "Nice" ticks covering [low, high]: multiples of 1, 2 or 5 times a power
/// of ten.
std::vector<double> linearTicks(double low, double high) {
  double range = high - low;
  if (!(range > 0))
    return {low};
  double step = std::pow(10.0, std::floor(std::log10(range / 5)));
  if (range / step > 10)
    step *= range / step > 25 ? 5 : 2;
  std::vector<double> ticks;
  for (double tick = std::ceil(low / step) * step; tick <= high + 1e-9 * step;
       tick += step)
    ticks.push_back(std::fabs(tick) < 1e-12 * step ? 0.0 : tick);
  return ticks;
}

/// One panel: a plotting area and the map from data to pixels.
class Panel {
public:
  Panel(std::ostringstream &os, int id, double left, double top, double width,
        double height)
      : os(os), id(id), left(left), top(top), width(width), height(height) {}

  void setRange(double x0, double x1, double y0, double y1, bool logY) {
    if (!(x1 > x0))
      x0 -= 0.5, x1 += 0.5;
    if (!(y1 > y0))
      y0 -= 0.5, y1 += 0.5;
    xLow = x0, xHigh = x1, yLow = y0, yHigh = y1, logScale = logY;
  }

  double x(double value) const {
    return left + (value - xLow) / (xHigh - xLow) * width;
  }
  double y(double value) const {
    double v = logScale ? std::log10(std::max(value, 1e-30)) : value;
    return top + height - (v - yLow) / (yHigh - yLow) * height;
  }

  /// The frame, ticks, labels and title; opens the clipped group that
  /// the data is drawn in (closed by end()).
  void begin(const std::string &title, const std::string &xLabel,
             const std::string &yLabel, const std::vector<double> &xTicks) {
    os << "<g font-size=\"11\" fill=\"#333\">\n";
    os << "<text x=\"" << px(left + width / 2) << "\" y=\"" << px(top - 10)
       << "\" text-anchor=\"middle\" font-size=\"13\">" << escape(title)
       << "</text>\n";
    for (double tick : xTicks) {
      os << "<line x1=\"" << px(x(tick)) << "\" y1=\"" << px(top + height)
         << "\" x2=\"" << px(x(tick)) << "\" y2=\"" << px(top + height + 4)
         << "\" stroke=\"#333\"/>";
      os << "<text x=\"" << px(x(tick)) << "\" y=\"" << px(top + height + 16)
         << "\" text-anchor=\"middle\">" << num(tick) << "</text>\n";
    }
    std::vector<std::pair<double, std::string>> yTicks;
    if (logScale) {
      for (double d = std::ceil(yLow); d <= std::floor(yHigh); ++d)
        yTicks.emplace_back(std::pow(10.0, d), "1e" + num(d));
    } else {
      for (double tick : linearTicks(yLow, yHigh))
        yTicks.emplace_back(tick, num(tick));
    }
    for (const auto &[tick, label] : yTicks) {
      os << "<line x1=\"" << px(left) << "\" y1=\"" << px(y(tick)) << "\" x2=\""
         << px(left + width) << "\" y2=\"" << px(y(tick))
         << "\" stroke=\"#ddd\"/>";
      os << "<text x=\"" << px(left - 6) << "\" y=\"" << px(y(tick) + 4)
         << "\" text-anchor=\"end\">" << escape(label) << "</text>\n";
    }
    os << "<text x=\"" << px(left + width / 2) << "\" y=\""
       << px(top + height + 34) << "\" text-anchor=\"middle\">"
       << escape(xLabel) << "</text>\n";
    os << "<text transform=\"translate(" << px(left - 44) << ","
       << px(top + height / 2) << ") rotate(-90)\" text-anchor=\"middle\">"
       << escape(yLabel) << "</text>\n";
    os << "<clipPath id=\"clip" << id << "\"><rect x=\"" << px(left)
       << "\" y=\"" << px(top) << "\" width=\"" << px(width) << "\" height=\""
       << px(height) << "\"/></clipPath>\n";
    os << "<g clip-path=\"url(#clip" << id << ")\">\n";
  }

  void end() {
    os << "</g>\n<rect x=\"" << px(left) << "\" y=\"" << px(top)
       << "\" width=\"" << px(width) << "\" height=\"" << px(height)
       << "\" fill=\"none\" stroke=\"#333\"/>\n</g>\n";
  }

  /// A polyline through the finite points, broken where one is not.
  void line(const std::vector<double> &xs, const std::vector<double> &ys,
            const std::string &style) {
    std::string points;
    auto flush = [&] {
      if (!points.empty())
        os << "<polyline fill=\"none\" " << style << " points=\"" << points
           << "\"/>\n";
      points.clear();
    };
    for (size_t i = 0; i < xs.size() && i < ys.size(); ++i) {
      if (!std::isfinite(ys[i]) || (logScale && !(ys[i] > 0))) {
        flush();
        continue;
      }
      points += px(x(xs[i])) + "," + px(y(ys[i])) + " ";
    }
    flush();
  }

  /// The area between `low` and `high` over `xs`.
  void band(const std::vector<double> &xs, const std::vector<double> &low,
            const std::vector<double> &high, const std::string &style) {
    std::string points;
    for (size_t i = 0; i < xs.size(); ++i)
      if (std::isfinite(high[i]))
        points += px(x(xs[i])) + "," + px(y(high[i])) + " ";
    for (size_t i = xs.size(); i-- > 0;)
      if (std::isfinite(low[i]))
        points += px(x(xs[i])) + "," + px(y(low[i])) + " ";
    os << "<polygon " << style << " points=\"" << points << "\"/>\n";
  }

  /// A legend entry, `row` lines below the panel's top-left corner.
  void legend(int row, const std::string &swatch, const std::string &text) {
    double ly = top + 14 + 15 * row, lx = left + 10;
    os << "<g>";
    if (swatch.rfind("rect", 0) == 0)
      os << "<rect x=\"" << px(lx) << "\" y=\"" << px(ly - 8)
         << "\" width=\"18\" height=\"9\" " << swatch.substr(4) << "/>";
    else if (swatch.rfind("dot", 0) == 0)
      os << "<circle cx=\"" << px(lx + 9) << "\" cy=\"" << px(ly - 4)
         << "\" r=\"2.5\" " << swatch.substr(3) << "/>";
    else
      os << "<line x1=\"" << px(lx) << "\" y1=\"" << px(ly - 4) << "\" x2=\""
         << px(lx + 18) << "\" y2=\"" << px(ly - 4) << "\" " << swatch << "/>";
    os << "<text x=\"" << px(lx + 24) << "\" y=\"" << px(ly)
       << "\" font-size=\"11\" fill=\"#333\">" << escape(text)
       << "</text></g>\n";
  }

  std::ostringstream &os;
  int id;
  double left, top, width, height;
  double xLow = 0, xHigh = 1, yLow = 0, yHigh = 1;
  bool logScale = false;
};

/// The finite range of several series, padded by 8%.
std::pair<double, double>
rangeOf(std::initializer_list<const std::vector<double> *> series) {
  double low = INFINITY, high = -INFINITY;
  for (const std::vector<double> *values : series)
    for (double value : *values)
      if (std::isfinite(value)) {
        low = std::min(low, value);
        high = std::max(high, value);
      }
  if (!(low <= high))
    return {-1, 1};
  double pad = 0.08 * (high - low);
  return {low - pad, high + pad};
}

void drawFit(Panel &panel, const FitPanel &fit) {
  std::vector<double> upper, lower;
  for (size_t i = 0; i < fit.mean.size(); ++i) {
    upper.push_back(fit.mean[i] + 2 * fit.stddev[i]);
    lower.push_back(fit.mean[i] - 2 * fit.stddev[i]);
  }
  // The range follows the data and the mean; a wide band is clipped.
  auto [yLow, yHigh] = rangeOf({&fit.pointsY, &fit.mean});
  double spare = 0.5 * (yHigh - yLow);
  auto [bandLow, bandHigh] = rangeOf({&lower, &upper});
  yLow = std::max(std::min(yLow, bandLow), yLow - spare);
  yHigh = std::min(std::max(yHigh, bandHigh), yHigh + spare);
  const std::string pointStyle = "fill=\"#333\" fill-opacity=\"0.55\"";
  const std::string bandStyle = "fill=\"#6baed6\" fill-opacity=\"0.35\"";
  const std::string meanStyle = "stroke=\"#08519c\" stroke-width=\"2\"";

  if (fit.overInput) {
    panel.setRange(-1, 1, yLow, yHigh, false);
    panel.begin(std::string("ensemble fit: mean and ") + kPlusMinus +
                    "2 std over members",
                "t", fit.yLabel, linearTicks(-1, 1));
    panel.os << "<rect x=\"" << px(panel.x(fit.gapLow)) << "\" y=\""
             << px(panel.top) << "\" width=\""
             << px(panel.x(fit.gapHigh) - panel.x(fit.gapLow)) << "\" height=\""
             << px(panel.height) << "\" fill=\"#eeeeee\"/>\n";
    panel.band(fit.curveX, lower, upper, bandStyle);
    panel.line(fit.curveX, fit.mean, meanStyle);
    for (size_t i = 0; i < fit.pointsX.size(); ++i)
      panel.os << "<circle cx=\"" << px(panel.x(fit.pointsX[i])) << "\" cy=\""
               << px(panel.y(fit.pointsY[i])) << "\" r=\"2\" " << pointStyle
               << "/>\n";
    panel.end();
    panel.legend(0, "dot" + pointStyle, "training data");
    panel.legend(1, meanStyle, "ensemble mean");
    panel.legend(2, "rect" + bandStyle,
                 std::string("mean ") + kPlusMinus + "2 std");
    panel.legend(3, "rect fill=\"#eeeeee\" stroke=\"#bbb\"",
                 "gap (no training data)");
    return;
  }
  // Real data: prediction against target.
  auto [xLow, xHigh] = rangeOf({&fit.pointsX});
  double low = std::min(xLow, yLow), high = std::max(xHigh, yHigh);
  panel.setRange(low, high, low, high, false);
  panel.begin(std::string("ensemble mean ") + kPlusMinus +
                  "2 std against the target",
              "target (output 0)", fit.yLabel, linearTicks(low, high));
  panel.line({low, high}, {low, high},
             "stroke=\"#999\" stroke-dasharray=\"4 3\"");
  for (size_t i = 0; i < fit.pointsX.size(); ++i) {
    double cx = panel.x(fit.pointsX[i]);
    panel.os << "<line x1=\"" << px(cx) << "\" y1=\"" << px(panel.y(lower[i]))
             << "\" x2=\"" << px(cx) << "\" y2=\"" << px(panel.y(upper[i]))
             << "\" stroke=\"#6baed6\"/>";
    panel.os << "<circle cx=\"" << px(cx) << "\" cy=\""
             << px(panel.y(fit.mean[i])) << "\" r=\"2\" fill=\"#08519c\"/>\n";
  }
  panel.end();
  panel.legend(0, "dot fill=\"#08519c\"", "ensemble mean");
  panel.legend(1, "stroke=\"#6baed6\"", std::string(kPlusMinus) + "2 std");
}

void drawReliability(Panel &panel, const ClassificationMetrics &metrics) {
  panel.setRange(0, 1, 0, 1, false);
  panel.begin("reliability: accuracy per bin of confidence (ECE " +
                  num(metrics.ece, 3) + ")",
              "confidence (the ensemble's top probability)", "accuracy",
              linearTicks(0, 1));
  const std::string barStyle =
      "fill=\"#6baed6\" fill-opacity=\"0.8\" stroke=\"#08519c\"";
  const std::string diagonalStyle = "stroke=\"#999\" stroke-dasharray=\"4 3\"";
  const double width = 1.0 / metrics.bins.size();
  for (size_t i = 0; i < metrics.bins.size(); ++i) {
    const CalibrationBin &bin = metrics.bins[i];
    if (!bin.rows)
      continue;
    double x0 = i * width, x1 = x0 + width;
    panel.os << "<rect x=\"" << px(panel.x(x0)) << "\" y=\""
             << px(panel.y(bin.accuracy)) << "\" width=\""
             << px(panel.x(x1) - panel.x(x0)) << "\" height=\""
             << px(panel.y(0) - panel.y(bin.accuracy)) << "\" " << barStyle
             << "/>\n";
    // The bin's mean confidence, where a calibrated bar would end.
    panel.line({x0, x1}, {bin.confidence, bin.confidence},
               "stroke=\"#a50f15\" stroke-width=\"2\"");
  }
  panel.line({0, 1}, {0, 1}, diagonalStyle);
  panel.end();
  panel.legend(0, "rect" + barStyle, "accuracy of the bin's rows");
  panel.legend(1, "stroke=\"#a50f15\" stroke-width=\"2\"",
               "their mean confidence");
  panel.legend(2, diagonalStyle, "perfect calibration");
}

void drawLosses(Panel &panel, const LossCurves &losses,
                const std::string &lossName) {
  std::vector<double> steps;
  double low = INFINITY, high = -INFINITY;
  for (size_t i = 0; i < losses.median.size(); ++i) {
    steps.push_back(i + 1);
    for (double value : {losses.min[i], losses.max[i]})
      if (std::isfinite(value) && value > 0) {
        low = std::min(low, value);
        high = std::max(high, value);
      }
  }
  if (!(low <= high))
    low = 1e-3, high = 1;
  double decadeLow = std::floor(std::log10(low)),
         decadeHigh = std::ceil(std::log10(high));
  if (decadeHigh <= decadeLow)
    decadeHigh = decadeLow + 1;
  double last = std::max<double>(steps.size(), 2);
  panel.setRange(1, last, decadeLow, decadeHigh, true);
  panel.begin("training " + lossName + " over members (log scale)", "step",
              lossName, linearTicks(1, last));
  const std::string edge = "stroke=\"#fb6a4a\" stroke-width=\"1\"";
  const std::string middle = "stroke=\"#a50f15\" stroke-width=\"2\"";
  if (!steps.empty()) {
    panel.band(steps, losses.min, losses.max,
               "fill=\"#fcbba1\" fill-opacity=\"0.5\"");
    panel.line(steps, losses.max, edge);
    panel.line(steps, losses.min, edge);
    panel.line(steps, losses.median, middle);
  }
  panel.end();
  panel.legend(0, middle, "median");
  panel.legend(1, edge, "min and max");
}

/// The accuracy per epoch, on a scale of percent.
void drawAccuracy(Panel &panel, const std::vector<double> &accuracy) {
  std::vector<double> epochs, percent;
  for (size_t i = 0; i < accuracy.size(); ++i) {
    epochs.push_back(i + 1);
    percent.push_back(100 * accuracy[i]);
  }
  auto [low, high] = rangeOf({&percent});
  double last = std::max<double>(epochs.size(), 2);
  panel.setRange(1, last, std::max(low, 0.0), std::min(high, 100.0), false);
  panel.begin("ensemble accuracy per epoch", "epoch", "accuracy (%)",
              linearTicks(1, last));
  const std::string style = "stroke=\"#08519c\" stroke-width=\"2\"";
  panel.line(epochs, percent, style);
  panel.end();
  panel.legend(0, style, "validation set (or training data)");
}

/// The document: the title, then the panels side by side, each drawn by
/// one of `draw`.
std::string
renderPanels(const std::string &title,
             const std::vector<std::function<void(Panel &)>> &draw) {
  const double width = kPanelWidth * draw.size();
  std::ostringstream os;
  os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
     << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width
     << "\" height=\"" << kHeight << "\" viewBox=\"0 0 " << width << " "
     << kHeight << "\" font-family=\"sans-serif\">\n"
     << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
     << "<text x=\"" << width / 2
     << "\" y=\"22\" text-anchor=\"middle\" "
        "font-size=\"15\" fill=\"#111\">"
     << escape(title) << "</text>\n";
  // Each panel's width, less the margin its axis labels take on the left.
  const double margin = 70, gap = 40;
  for (size_t i = 0; i < draw.size(); ++i) {
    Panel panel(os, i, i * kPanelWidth + margin, 60, kPanelWidth - margin - gap,
                310);
    draw[i](panel);
  }
  os << "</svg>\n";
  return os.str();
}
} // namespace

std::string ens_train::renderPlot(const std::string &title, const FitPanel &fit,
                                  const LossCurves &losses) {
  return renderPanels(
      title, {[&](Panel &panel) { drawFit(panel, fit); },
              [&](Panel &panel) { drawLosses(panel, losses, "loss"); }});
}

std::string ens_train::renderPlot(const std::string &title,
                                  const ClassificationMetrics &metrics,
                                  const LossCurves &losses,
                                  const std::vector<double> &accuracy) {
  return renderPanels(title,
                      {[&](Panel &panel) { drawReliability(panel, metrics); },
                       [&](Panel &panel) { drawLosses(panel, losses, "NLL"); },
                       [&](Panel &panel) { drawAccuracy(panel, accuracy); }});
}
