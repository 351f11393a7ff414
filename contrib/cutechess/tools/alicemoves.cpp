/*
    This file is part of Cute Chess.

    Cute Chess is free software: you can redistribute it and/or modify
    it under the terms of the GNU General Public License as published by
    the Free Software Foundation, either version 3 of the License, or
    (at your option) any later version.

    Cute Chess is distributed in the hope that it will be useful,
    but WITHOUT ANY WARRANTY; without even the implied warranty of
    MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the
    GNU General Public License for more details.

    You should have received a copy of the GNU General Public License
    along with Cute Chess.  If not, see <http://www.gnu.org/licenses/>.
*/

// A test harness over cutechess's boards: one request a line on stdin,
// one answer a line on stdout.
//
//   moves <fen>            the legal moves (UCI), sorted, space-separated
//   san <fen> <move>       the move's SAN
//   fen <fen> <moves...>   the FEN after playing the UCI or SAN moves
//   result <fen>           the result ("*" while the game goes on)
//   perft <depth> <fen>    the perft node count
//
// An invalid FEN or move answers "error: ..." on the same line.
// The variant is the first argument (default: alice).

#include <QCoreApplication>
#include <QTextStream>
#include <QStringList>
#include <QRegularExpression>
#include <board/board.h>
#include <board/boardfactory.h>

static quint64 perft(Chess::Board* board, int depth)
{
	const QVector<Chess::Move> moves = board->legalMoves();
	if (depth <= 1)
		return depth == 1 ? moves.size() : 1;
	quint64 nodes = 0;
	for (const Chess::Move& move : moves)
	{
		board->makeMove(move);
		nodes += perft(board, depth - 1);
		board->undoMove();
	}
	return nodes;
}

static QString answer(Chess::Board* board, const QString& line)
{
	QStringList words = line.split(' ', Qt::SkipEmptyParts);
	if (words.isEmpty())
		return QString();
	QString command = words.takeFirst();
	int depth = 0;
	if (command == "perft")
	{
		if (words.isEmpty())
			return "error: perft needs a depth";
		depth = words.takeFirst().toInt();
	}
	// The FEN: its six fields (or fewer, up to the first move).
	int fields = qMin(6, int(words.size()));
	if (command == "san" || command == "fen")
	{
		fields = 0;
		while (fields < words.size() && fields < 6
		&&     (fields < 2 || !words[fields].contains(QRegularExpression("[a-h][1-8]"))
			|| words[fields] == "-"))
			fields++;
	}
	QString fen = words.mid(0, fields).join(' ');
	QStringList rest = words.mid(fields);
	if (!board->setFenString(fen))
		return "error: invalid FEN: " + fen;

	if (command == "moves")
	{
		QStringList list;
		for (const Chess::Move& move : board->legalMoves())
			list << board->moveString(move, Chess::Board::LongAlgebraic);
		list.sort();
		return list.join(' ');
	}
	if (command == "perft")
		return QString::number(perft(board, depth));
	if (command == "result")
		return board->result().toShortString();
	if (command == "san" || command == "fen")
	{
		QString last;
		for (const QString& str : rest)
		{
			Chess::Move move = board->moveFromString(str);
			if (move.isNull() || !board->isLegalMove(move))
				return "error: illegal move: " + str;
			last = board->moveString(move, Chess::Board::StandardAlgebraic);
			board->makeMove(move);
		}
		return command == "san" ? last : board->fenString();
	}
	return "error: unknown command: " + command;
}

int main(int argc, char* argv[])
{
	QCoreApplication app(argc, argv);
	QString variant = argc > 1 ? QString(argv[1]) : QString("alice");
	Chess::Board* board = Chess::BoardFactory::create(variant);
	if (board == nullptr)
	{
		QTextStream(stderr) << "unknown variant: " << variant << "\n";
		return 1;
	}
	QTextStream in(stdin);
	QTextStream out(stdout);
	QString line;
	while (in.readLineInto(&line))
	{
		out << answer(board, line.trimmed()) << "\n";
		out.flush();
	}
	delete board;
	return 0;
}
